/**
 * HTML rendering of the design model: ONE self-contained file — inline CSS, code highlighted with
 * inline styles, a linked table of contents, no external URL of any kind. Every string is escaped.
 */
import type { Block, DesignModel, Inline, Section } from '../design/model.js';
import { highlight } from './highlight.js';
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

async function block(item: Block): Promise<string> {
  switch (item.kind) {
    case 'paragraph':
      return `<p>${inline(item.content)}</p>`;
    case 'list': {
      if (item.items.length === 0) return '';
      const tag = item.ordered ? 'ol' : 'ul';
      return `<${tag}>${item.items.map((entry) => `<li>${inline(entry)}</li>`).join('')}</${tag}>`;
    }
    case 'table': {
      if (item.rows.length === 0) return '';
      const caption = item.caption ? `<caption>${escapeHtml(item.caption)}</caption>` : '';
      const head = `<thead><tr>${item.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('')}</tr></thead>`;
      const body = `<tbody>${item.rows.map((row) => `<tr>${row.map((cell) => `<td>${inline(cell)}</td>`).join('')}</tr>`).join('')}</tbody>`;
      return `<table>${caption}${head}${body}</table>`;
    }
    case 'code': {
      const caption = item.title ? `<figcaption>${escapeHtml(item.title)}</figcaption>` : '';
      return `<figure>${caption}${await highlight(item.code, item.language)}</figure>`;
    }
    case 'callout':
      return `<aside class="callout ${item.tone}"><p>${escapeHtml(item.title)}</p><ul>${item.items.map((entry) => `<li>${inline(entry)}</li>`).join('')}</ul></aside>`;
  }
}

async function section(item: Section, level: number): Promise<string> {
  const tag = `h${Math.min(level, 6)}`;
  const blocks = await Promise.all(item.blocks.map(block));
  const children = await Promise.all(item.children.map((child) => section(child, level + 1)));
  return `<section id="${safeId(item.id)}"><${tag}>${escapeHtml(item.title)}</${tag}>${blocks.join('')}${children.join('')}</section>`;
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
<meta name="generator" content="idempotency-builder">
<meta name="${MARKER_PREFIX}" content="${escapeHtml(JSON.stringify(model.meta))}">
<title>${escapeHtml(model.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="page">
<header><h1>${escapeHtml(model.title)}</h1><p class="subtitle">${escapeHtml(model.subtitle)}</p></header>
<nav class="toc" aria-label="Contents"><h2>Contents</h2>${toc(model.sections, 0)}</nav>
<main>${sections.join('\n')}</main>
<footer>Generated ${escapeHtml(generated)} by idempotency-builder.</footer>
</div>
</body>
</html>
`;
}
