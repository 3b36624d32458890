/**
 * A rendered design document (Markdown or HTML) read back into a tree of sections with their
 * paragraphs, list items, table rows and code blocks as plain text — what the constraint checks
 * inspect. Markdown goes through markdown-it; HTML through a tag scanner for the elements the
 * renderer writes.
 */
import MarkdownIt, { type Token } from 'markdown-it';
import { MARKER_PREFIX } from '../render/markdown.js';

export type DocBlock =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'row'; readonly cells: readonly string[]; readonly header: boolean }
  | { readonly kind: 'code'; readonly text: string };

export interface DocSection {
  readonly title: string;
  readonly level: number;
  readonly blocks: DocBlock[];
  readonly children: DocSection[];
}

export interface DocumentTree {
  readonly sections: DocSection[];
  /** The embedded marker (`DesignMeta`), when present and valid. */
  readonly meta: { readonly actions?: readonly string[] } | undefined;
}

type Flat = { readonly kind: 'heading'; readonly level: number; readonly text: string } | DocBlock;

function nest(flat: readonly Flat[]): DocSection[] {
  const root: DocSection = { title: '', level: 1, blocks: [], children: [] };
  const stack: DocSection[] = [root];
  for (const item of flat) {
    if (item.kind === 'heading') {
      if (item.level < 2) continue;
      while ((stack[stack.length - 1] as DocSection).level >= item.level) stack.pop();
      const section: DocSection = { title: item.text, level: item.level, blocks: [], children: [] };
      (stack[stack.length - 1] as DocSection).children.push(section);
      stack.push(section);
    } else {
      (stack[stack.length - 1] as DocSection).blocks.push(item);
    }
  }
  return root.children;
}

function parseMeta(json: string | undefined): DocumentTree['meta'] {
  if (!json) return undefined;
  try {
    const meta = JSON.parse(json) as { actions?: unknown };
    return Array.isArray(meta.actions) && meta.actions.every((a) => typeof a === 'string') ? { actions: meta.actions as string[] } : {};
  } catch {
    return undefined;
  }
}

function inlineText(token: Token | undefined): string {
  if (!token?.children) return token?.content ?? '';
  return token.children.map((child: Token) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'softbreak' ? ' ' : '')).join('').trim();
}

/**
 * The renderer's fold around a long block (render/markdown.ts writes `<details><summary>…</summary>`
 * before it and `</details>` after): layout, not text. Read as a paragraph, it would stand between
 * an embedded file's caption and its code, and the file would go unchecked.
 */
const MARKDOWN_FOLD = /^(?:<details><summary>[\s\S]*?<\/summary>|<\/details>)$/;

/**
 * Reads Markdown with markdown-it (the same parser the HTML side of the ecosystem uses).
 * @example markdownTree(readFileSync('design.md', 'utf8')).sections[0].title
 */
export function markdownTree(text: string): DocumentTree {
  const tokens = new MarkdownIt({ html: false }).parse(text, {});
  const flat: Flat[] = [];
  let row: string[] | undefined;
  let header = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type === 'heading_open') flat.push({ kind: 'heading', level: Number(token.tag.slice(1)), text: inlineText(tokens[i + 1]) });
    else if (token.type === 'thead_open') header = true;
    else if (token.type === 'tbody_open') header = false;
    else if (token.type === 'tr_open') row = [];
    else if ((token.type === 'th_open' || token.type === 'td_open') && row) row.push(inlineText(tokens[i + 1]));
    else if (token.type === 'tr_close' && row) {
      flat.push({ kind: 'row', cells: row, header });
      row = undefined;
    } else if (token.type === 'fence' || token.type === 'code_block') flat.push({ kind: 'code', text: token.content });
    else if (token.type === 'inline' && !row && tokens[i - 1]?.type !== 'heading_open' && !MARKDOWN_FOLD.test(token.content.trim())) flat.push({ kind: 'text', text: inlineText(token) });
  }
  const marker = new RegExp(`<!--\\s*${MARKER_PREFIX}\\s+(\\{[\\s\\S]*?\\})\\s*-->`).exec(text);
  return { sections: nest(flat), meta: parseMeta(marker?.[1]) };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1]?.toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string) => decode(html.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

/**
 * Reads the renderer's HTML (and hand edits of it): headings, paragraphs, items, rows, code.
 * @example htmlTree(readFileSync('design.html', 'utf8')).meta?.actions
 */
export function htmlTree(text: string): DocumentTree {
  const start = text.search(/<main[\s>]/i);
  const end = text.search(/<\/main>/i);
  const body = start >= 0 ? text.slice(start, end > start ? end : undefined) : text.replace(/<nav[\s\S]*?<\/nav>/gi, '');
  const flat: Flat[] = [];
  const pattern = /<(h[1-6])\b[^>]*>([\s\S]*?)<\/\1>|<(p|li|figcaption)\b[^>]*>([\s\S]*?)<\/\3>|<tr\b[^>]*>([\s\S]*?)<\/tr>|<pre\b[^>]*>([\s\S]*?)<\/pre>/gi;
  for (let match = pattern.exec(body); match; match = pattern.exec(body)) {
    if (match[1]) flat.push({ kind: 'heading', level: Number(match[1].slice(1)), text: stripTags(match[2] ?? '') });
    else if (match[3]) flat.push({ kind: 'text', text: stripTags(match[4] ?? '') });
    else if (match[5] !== undefined) {
      const cells = [...(match[5] ?? '').matchAll(/<(t[hd])\b[^>]*>([\s\S]*?)<\/\1>/gi)];
      flat.push({ kind: 'row', cells: cells.map((cell) => stripTags(cell[2] ?? '')), header: cells.every((cell) => cell[1]?.toLowerCase() === 'th') });
    } else if (match[6] !== undefined) {
      // Shiki wraps every line in a span; newlines between them are the line breaks.
      flat.push({ kind: 'code', text: decode((match[6] ?? '').replace(/<[^>]*>/g, '')) });
    }
  }
  const marker = new RegExp(`<meta\\s+name="${MARKER_PREFIX}"\\s+content="([^"]*)"`, 'i').exec(text);
  return { sections: nest(flat), meta: parseMeta(marker ? decode(marker[1] ?? '') : undefined) };
}
