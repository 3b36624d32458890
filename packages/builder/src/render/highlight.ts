/**
 * Syntax highlighting with shiki, offline: grammars and theme ship inside the package, and the
 * output uses inline styles only (no stylesheet, no external asset).
 */
import { createHighlighter, type Highlighter } from 'shiki';
import type { CodeLanguage } from '../design/model.js';

const LANGUAGES = ['sql', 'typescript', 'javascript', 'python', 'go', 'java', 'lua', 'json', 'yaml', 'bash'] as const;
export const THEME = 'github-light-high-contrast';
/** Dark-mode colours ride along as `--shiki-dark` custom properties; the stylesheet switches to them. */
export const DARK_THEME = 'github-dark-high-contrast';

let highlighter: Promise<Highlighter> | undefined;

function load(): Promise<Highlighter> {
  highlighter ??= createHighlighter({ themes: [THEME, DARK_THEME], langs: [...LANGUAGES] });
  return highlighter;
}

/**
 * `<pre class="shiki" style="…"><code>…</code></pre>` for the code, colours inline.
 * @example await highlight('SELECT 1', 'sql')
 */
export async function highlight(code: string, language: CodeLanguage): Promise<string> {
  const shiki = await load();
  const lang = (LANGUAGES as readonly string[]).includes(language) ? language : 'text';
  return shiki.codeToHtml(code, { lang, themes: { light: THEME, dark: DARK_THEME }, defaultColor: 'light' });
}
