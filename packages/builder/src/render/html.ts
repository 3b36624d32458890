/**
 * HTML rendering of the design model: ONE self-contained file — inline CSS and script, code
 * highlighted with inline styles, diagrams as inline SVG, a sidebar table of contents, no external
 * URL of any kind. Every string is escaped. The script only adds conveniences (current-section
 * highlight, copy buttons, a collapsed contents list on phones); the page works without it.
 */
import type { Block, DesignModel, Inline, Section } from '../design/model.js';
import { diagramSvg } from './diagram-svg.js';
import { foldSummary } from './fold.js';
import { highlight } from './highlight.js';
import { SCRIPT } from './html-script.js';
import { STYLE } from './html-style.js';
import { MARKER_PREFIX } from './markdown.js';

/**
 * Escapes text for element content and attribute values alike.
 * @example escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const safeId = (id: string) => id.replace(/[^a-z0-9-]/g, '-');

function inline(content: readonly Inline[]): string {
  return content
    .map((part) => {
      if ('text' in part) return escapeHtml(part.text);
      if ('code' in part) return `<code>${escapeHtml(part.code)}</code>`;
      if ('strong' in part) return `<strong>${escapeHtml(part.strong)}</strong>`;
      return `<a href="#${safeId(part.link.target)}">${escapeHtml(part.link.text)}</a>`;
    })
    .join('');
}

const fold = (summary: string | undefined, html: string) => (summary ? `<details><summary>${escapeHtml(summary)}</summary>${html}</details>` : html);

async function block(item: Block): Promise<string> {
  switch (item.kind) {
    case 'paragraph':
      return `<p>${inline(item.content)}</p>`;
    case 'list': {
      if (item.items.length === 0) return '';
      const tag = item.ordered ? 'ol' : 'ul';
      return fold(foldSummary(item), `<${tag}>${item.items.map((entry) => `<li>${inline(entry)}</li>`).join('')}</${tag}>`);
    }
    case 'table': {
      if (item.rows.length === 0) return '';
      const caption = item.caption ? `<caption>${escapeHtml(item.caption)}</caption>` : '';
      const head = `<thead><tr>${item.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('')}</tr></thead>`;
      // data-label lets a phone stack each row as label/value pairs instead of squeezing the columns.
      const labels = item.columns.map((column) => escapeHtml(column));
      const body = `<tbody>${item.rows.map((row) => `<tr>${row.map((cell, i) => `<td data-label="${labels[i] ?? ''}">${inline(cell)}</td>`).join('')}</tr>`).join('')}</tbody>`;
      // The wrapper scrolls sideways on a phone; focusable so a keyboard can scroll it too.
      const label = escapeHtml(item.caption ?? item.columns.join(', '));
      return fold(foldSummary(item), `<div class="table-wrap" tabindex="0" role="region" aria-label="${label}"><table>${caption}${head}${body}</table></div>`);
    }
    case 'code': {
      const caption = item.title ? `<figcaption>${escapeHtml(item.title)}</figcaption>` : '';
      // shiki's <pre> is focusable (tabindex="0"), so a keyboard can scroll a wide block.
      // The caption stays outside the fold, right before the code: `check` pairs them to find the file.
      return `<figure class="code">${caption}${fold(foldSummary(item), await highlight(item.code, item.language))}</figure>`;
    }
    case 'diagram':
      return `<figure class="diagram-figure"><figcaption>${escapeHtml(item.title)}</figcaption><div class="diagram-wrap">${diagramSvg(item.diagram, item.title)}</div></figure>`;
    case 'callout':
      return `<aside class="callout ${item.tone}"><p>${escapeHtml(item.title)}</p><ul>${item.items.map((entry) => `<li>${inline(entry)}</li>`).join('')}</ul></aside>`;
  }
}

async function section(item: Section, level: number): Promise<string> {
  const tag = `h${Math.min(level, 6)}`;
  const id = safeId(item.id);
  const blocks = await Promise.all(item.blocks.map(block));
  const children = await Promise.all(item.children.map((child) => section(child, level + 1)));
  // The anchor has no text of its own (CSS draws the mark), so the heading's text stays the title.
  const anchor = `<a class="anchor" href="#${id}" aria-label="Link to ${escapeHtml(item.title)}"></a>`;
  return `<section id="${id}">\n<${tag}>${escapeHtml(item.title)}${anchor}</${tag}>\n${blocks.filter(Boolean).join('\n')}\n${children.join('\n')}</section>`;
}

function toc(sections: readonly Section[], depth: number): string {
  const items = sections.map((item) => {
    const nested = depth < 1 && item.children.length > 0 ? toc(item.children, depth + 1) : '';
    return `<li><a href="#${safeId(item.id)}">${escapeHtml(item.title)}</a>${nested}</li>`;
  });
  return `<ol>${items.join('')}</ol>`;
}

/**
 * The whole document as one self-contained HTML file.
 * @example writeFileSync('docs/idempotency-design.html', await renderHtml(model));
 */
export async function renderHtml(model: DesignModel): Promise<string> {
  const sections = await Promise.all(model.sections.map((item) => section(item, 2)));
  const generated = model.generatedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="idempotency-builder">
<meta name="${MARKER_PREFIX}" content="${escapeHtml(JSON.stringify(model.meta))}">
<title>${escapeHtml(model.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the document</a>
<div class="layout">
<nav class="toc" aria-label="Contents"><details open><summary>Contents</summary>${toc(model.sections, 0)}</details></nav>
<div class="page">
<header><h1>${escapeHtml(model.title)}</h1><p class="subtitle">${escapeHtml(model.subtitle)}</p></header>
<main id="main">
${sections.join('\n')}
</main>
<footer>Generated ${escapeHtml(generated)} by idempotency-builder.</footer>
</div>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
