/**
 * Markdown rendering of the design model (CommonMark + GFM tables). Every user-derived string is
 * escaped, so nothing in the answers can inject HTML or markup into the document.
 */
import { diagramMermaid } from './diagram-mermaid.js';
import { foldSummary } from './fold.js';
import type { Block, DesignModel, Inline, Section } from '../design/model.js';

export const MARKER_PREFIX = 'idempotency-builder:design';

/**
 * Backslash-escapes the characters that would start markup (CommonMark allows it for all ASCII punctuation).
 * @example escapeMarkdown('<b>*x*</b>') // '\\<b\\>\\*x\\*\\</b\\>'
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_[\]<>|~])/g, '\\$1')
    .replace(/^([#+-])(?=\s)/, '\\$1')
    .replace(/^(\d+)\.(?=\s)/, '$1\\.')
    .replace(/\r?\n/g, ' ');
}

function codeSpan(text: string, inTable: boolean): string {
  const body = inTable ? text.replace(/\|/g, '\\|') : text;
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * Inline content as Markdown; inside tables, pipes in code spans are escaped too.
 * @example renderInlineMarkdown([{ code: 'a|b' }], true) // '`a\\|b`'
 */
export function renderInlineMarkdown(content: readonly Inline[], inTable = false): string {
  return content
    .map((part) => {
      if ('text' in part) return escapeMarkdown(part.text);
      if ('code' in part) return codeSpan(part.code, inTable);
      if ('strong' in part) return `**${escapeMarkdown(part.strong)}**`;
      return `[${escapeMarkdown(part.link.text)}](#${part.link.target})`;
    })
    .join('');
}

function fenceFor(code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`{3,}/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/**
 * Folded blocks as GitHub/GitLab render them: `<details>` around the block, blank lines kept so
 * the Markdown inside still renders. `expand` writes them open (the standalone runbook file).
 */
function folded(summary: string | undefined, body: string, expand: boolean): string {
  if (!summary || expand) return body;
  const text = summary.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<details><summary>${text}</summary>\n\n${body}\n\n</details>`;
}

function renderBlock(block: Block, expand = false): string | undefined {
  switch (block.kind) {
    case 'paragraph':
      return renderInlineMarkdown(block.content);
    case 'list':
      if (block.items.length === 0) return undefined;
      return folded(foldSummary(block), block.items.map((item, index) => `${block.ordered ? `${index + 1}.` : '-'} ${renderInlineMarkdown(item)}`).join('\n'), expand);
    case 'table': {
      if (block.rows.length === 0) return undefined;
      const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
      const lines = [
        ...(block.caption ? [`*${escapeMarkdown(block.caption)}*`, ''] : []),
        row(block.columns.map((column) => escapeMarkdown(column))),
        row(block.columns.map(() => '---')),
        ...block.rows.map((cells) => row(cells.map((cell) => renderInlineMarkdown(cell, true)))),
      ];
      return folded(foldSummary(block), lines.join('\n'), expand);
    }
    case 'code': {
      const fence = fenceFor(block.code);
      // The caption stays outside the fold, right before the code: `check` pairs them to find the file.
      const title = block.title ? `*${escapeMarkdown(block.title)}*\n\n` : '';
      return `${title}${folded(foldSummary(block), `${fence}${block.language}\n${block.code}\n${fence}`, expand)}`;
    }
    case 'diagram':
      return `*${escapeMarkdown(block.title)}*\n\n\`\`\`mermaid\n${diagramMermaid(block.diagram)}\n\`\`\``;
    case 'callout':
      return [`> **${escapeMarkdown(block.title)}**`, '>', ...block.items.map((item) => `> - ${renderInlineMarkdown(item)}`)].join('\n');
  }
}

function renderSection(section: Section, level: number, expand = false): string {
  const heading = `<a id="${section.id}"></a>\n\n${'#'.repeat(Math.min(level, 6))} ${escapeMarkdown(section.title)}`;
  const blocks = section.blocks.map((block) => renderBlock(block, expand)).filter((block): block is string => block !== undefined);
  const children = section.children.map((child) => renderSection(child, level + 1, expand));
  return [heading, ...blocks, ...children].join('\n\n');
}

function tocLines(sections: readonly Section[], depth: number): string[] {
  return sections.flatMap((section) => [
    `${'  '.repeat(depth)}- [${escapeMarkdown(section.title)}](#${section.id})`,
    ...(depth < 1 ? tocLines(section.children, depth + 1) : []),
  ]);
}

/**
 * The whole document as Markdown, with a machine-readable marker for `checkDocument`.
 * @example writeFileSync('docs/idempotency-design.md', renderMarkdown(model));
 */
export function renderMarkdown(model: DesignModel): string {
  const marker = `<!-- ${MARKER_PREFIX} ${JSON.stringify(model.meta).replace(/--/g, '\\u002d\\u002d')} -->`;
  const parts = [
    marker,
    `# ${escapeMarkdown(model.title)}`,
    `*${escapeMarkdown(model.subtitle)}*`,
    '## Contents',
    tocLines(model.sections, 0).join('\n'),
    ...model.sections.map((section) => renderSection(section, 2)),
    '---',
    `Generated ${escapeMarkdown(model.generatedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} by idempotency-builder.`,
  ];
  return `${parts.join('\n\n')}\n`;
}

/**
 * A few sections as a standalone Markdown file (used for the runbook artifact).
 * @example renderMarkdownSections('Runbook', [runbookSection])
 */
export function renderMarkdownSections(title: string, sections: readonly Section[]): string {
  return `${[`# ${escapeMarkdown(title)}`, ...sections.map((section) => renderSection(section, 2, true))].join('\n\n')}\n`;
}
