/**
 * Builders for the design model. Prose is written as tagged templates: backticks in the literal
 * text become code spans and `**x**` becomes strong text, while interpolated values (anything
 * derived from the user's answers) stay plain text that renderers escape.
 */
import type { Block, CodeLanguage, Inline, Section } from './model.js';

type Part = string | number | Inline | readonly Inline[];

export const code = (value: string): Inline => ({ code: value });
export const strong = (value: string): Inline => ({ strong: value });
export const link = (text: string, target: string): Inline => ({ link: { text, target } });

function parseLiteral(literal: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (let match = pattern.exec(literal); match; match = pattern.exec(literal)) {
    if (match.index > last) out.push({ text: literal.slice(last, match.index) });
    out.push(match[1] !== undefined ? { code: match[1] } : { strong: match[2] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < literal.length) out.push({ text: literal.slice(last) });
  return out;
}

function isInline(value: unknown): value is Inline {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Inline content from a template; literal backticks mark code, interpolations are plain text.
 * @example txt`Lease ${formatMs(30000)} for \`createPayment\`` // [{text:'Lease 30 s for '}, {code:'createPayment'}]
 */
export function txt(literals: TemplateStringsArray, ...values: Part[]): Inline[] {
  const out: Inline[] = [];
  literals.forEach((literal, index) => {
    out.push(...parseLiteral(literal));
    if (index >= values.length) return;
    const value = values[index] as Part;
    if (typeof value === 'string' || typeof value === 'number') out.push({ text: String(value) });
    else if (Array.isArray(value)) out.push(...(value as readonly Inline[]));
    else if (isInline(value)) out.push(value);
  });
  return merge(out);
}

/** Plain text only, no markup parsing (for user-derived strings). */
export const plain = (value: string): Inline[] => [{ text: value }];

/**
 * Authored prose held in a variable (never user input): backticks become code spans, `**x**` strong.
 * @example rich('uses `now()`') // [{ text: 'uses ' }, { code: 'now()' }]
 */
export const rich = (value: string): Inline[] => merge(parseLiteral(value));

function merge(parts: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const part of parts) {
    const previous = out[out.length - 1];
    if ('text' in part && part.text === '') continue;
    if (previous && 'text' in previous && 'text' in part) out[out.length - 1] = { text: previous.text + part.text };
    else out.push(part);
  }
  return out;
}

/**
 * Joins inline runs with a separator, e.g. a comma-separated list of code spans.
 * @example join([[code('a')], [code('b')]]) // a, b
 */
export function join(items: readonly (readonly Inline[])[], separator = ', '): Inline[] {
  const out: Inline[] = [];
  items.forEach((item, index) => {
    if (index > 0) out.push({ text: separator });
    out.push(...item);
  });
  return merge(out);
}

/**
 * A list item that starts with a bold label; the constraint check looks for these labels.
 * @example labelled('Lock timeout', txt`8 s because …`)
 */
export function labelled(label: string, content: readonly Inline[]): Inline[] {
  return merge([{ strong: `${label}:` }, { text: ' ' }, ...content]);
}

export const para = (content: readonly Inline[]): Block => ({ kind: 'paragraph', content });
export const bullets = (items: readonly (readonly Inline[])[]): Block => ({ kind: 'list', ordered: false, items });
export const numbered = (items: readonly (readonly Inline[])[]): Block => ({ kind: 'list', ordered: true, items });
export const codeBlock = (language: CodeLanguage, source: string, title?: string): Block => ({
  kind: 'code',
  language,
  code: source.replace(/\s+$/, ''),
  ...(title !== undefined ? { title } : {}),
});

/**
 * A table; cells given as strings are authored prose (see `rich`); wrap user data in `plain`.
 * @example table(['Field', 'Why'], [[[code('amount')], 'how much money moves']])
 */
export function table(columns: readonly string[], rows: readonly (readonly (string | readonly Inline[])[])[], caption?: string): Block {
  return {
    kind: 'table',
    columns,
    rows: rows.map((row) => row.map((cell) => (typeof cell === 'string' ? rich(cell) : cell))),
    ...(caption !== undefined ? { caption } : {}),
  };
}

/**
 * The same block folded behind `summary`: reference material a reader opens when needed.
 * @example collapse(codeBlock('sql', query, 'Stuck records'), 'Show the query')
 */
export function collapse(block: Block, summary: string): Block {
  return block.kind === 'list' || block.kind === 'table' || block.kind === 'code' ? { ...block, collapsed: summary } : block;
}

/**
 * A highlighted box: a note, a warning, or the assumptions to confirm.
 * @example callout('warning', 'Invariant', [txt`Never mint a fresh provider key.`])
 */
export function callout(tone: 'note' | 'warning' | 'assumption', title: string, items: readonly (readonly Inline[])[]): Block {
  return { kind: 'callout', tone, title, items };
}

/**
 * A section of the document with its blocks and subsections.
 * @example section('lock-timeout', '4.3 Lock timeout', [para(txt`…`)])
 */
export function section(id: string, title: string, blocks: readonly Block[], children: readonly Section[] = []): Section {
  return { id, title, blocks, children };
}

/**
 * Anchor id from free text: lowercase ASCII letters, digits and single dashes.
 * @example slug('4.3 Lock timeout') // '4-3-lock-timeout'
 */
export function slug(value: string): string {
  const cleaned = value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned.length > 0 ? cleaned : 'section';
}
