/**
 * The method's seven testable constraints, each checked on the content of a document tree — a
 * marker alone never satisfies a check, and deleting the content is always caught.
 */
import type { DocBlock, DocSection, DocumentTree } from './document-tree.js';

export const CONSTRAINTS = {
  'recovery-path': 'Every protected action specifies its failure recovery path (never just “retry”).',
  'store-ddl': 'The idempotency store DDL is included with the PRIMARY KEY and CHECK constraints.',
  'fingerprint-fields': 'Semantically significant fields for fingerprinting are listed per action.',
  'lock-timeout': 'The lock timeout value is stated with justification.',
  'key-expiry': 'The key expiration window is stated with justification.',
  'anti-pattern': 'At least one anti-pattern relevant to the stack is called out.',
  'concurrent-test': 'A concurrent-duplicate test case is included with its expected behaviour.',
} as const;

export type ConstraintId = keyof typeof CONSTRAINTS;

export interface Violation {
  readonly constraint: ConstraintId;
  readonly message: string;
}

const DURATION = /\b\d+(?:[.,]\d+)?\s*(?:ms|milliseconds?|s|sec|seconds?|min|minutes?|h|hours?|d|days?)\b/i;
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function all(sections: readonly DocSection[]): DocSection[] {
  return sections.flatMap((section) => [section, ...all(section.children)]);
}

function blocksOf(section: DocSection): DocBlock[] {
  return [...section.blocks, ...section.children.flatMap(blocksOf)];
}

const texts = (section: DocSection) => blocksOf(section).flatMap((block) => (block.kind === 'text' ? [block.text] : []));
const findTop = (tree: DocumentTree, pattern: RegExp) => all(tree.sections).find((section) => pattern.test(section.title));
const labelled = (section: DocSection, label: string) => texts(section).filter((text) => text.toLowerCase().startsWith(`${label.toLowerCase()}:`));
const mentions = (text: string, name: string) => new RegExp(`(^|[^A-Za-z0-9])${name}([^A-Za-z0-9]|$)`).test(text);

/**
 * The actions the document must cover: the marker's list, else the analysis subsections.
 * @example expectedActions(markdownTree(text)) // ['createPayment']
 */
export function expectedActions(tree: DocumentTree): string[] {
  if (tree.meta?.actions && tree.meta.actions.length > 0) return [...tree.meta.actions];
  const analysis = findTop(tree, /action analysis/i);
  return (analysis?.children ?? []).map((child) => child.title.split(/\s+[—–-]\s+/)[0]?.trim() ?? child.title).filter(Boolean);
}

function recoveryPaths(tree: DocumentTree, actions: readonly string[]): Violation[] {
  const analysis = findTop(tree, /action analysis/i);
  if (!analysis) return [{ constraint: 'recovery-path', message: 'The document has no “Action analysis” section.' }];
  if (actions.length === 0) return [{ constraint: 'recovery-path', message: 'The action analysis names no protected action.' }];
  const out: Violation[] = [];
  for (const action of actions) {
    // The action's subsection names it in its title, or — for a treatment shared by many actions — in its table's first column.
    const child = analysis.children.find((section) => mentions(section.title, action)) ?? analysis.children.find((section) => section.blocks.some((b) => b.kind === 'row' && !b.header && (b.cells[0] ?? '').trim() === action));
    const path = child ? labelled(child, 'Failure recovery path')[0] : undefined;
    const body = path?.slice(path.indexOf(':') + 1).trim() ?? '';
    if (!child) out.push({ constraint: 'recovery-path', message: `Action ${action} has no analysis subsection.` });
    else if (!path) out.push({ constraint: 'recovery-path', message: `Action ${action} states no “Failure recovery path”.` });
    else if (words(body) < 8 || /^(just\s+)?(retry|retries|re-?try it)[.!]?$/i.test(body)) {
      out.push({ constraint: 'recovery-path', message: `Action ${action}’s recovery path is too thin (“${body}”): say how the orphan is detected and resolved, not just “retry”.` });
    }
  }
  return out;
}

function storeDdl(tree: DocumentTree): Violation[] {
  const code = all(tree.sections).flatMap((section) => section.blocks.flatMap((block) => (block.kind === 'code' ? [block.text] : [])));
  const ddl = code.filter((text) => /CREATE\s+TABLE/i.test(text));
  if (ddl.length === 0) return [{ constraint: 'store-ddl', message: 'No CREATE TABLE statement for the idempotency store.' }];
  if (!ddl.some((text) => /PRIMARY\s+KEY/i.test(text) && /\bCHECK\s*\(/i.test(text))) {
    return [{ constraint: 'store-ddl', message: 'The store DDL lacks the PRIMARY KEY or the CHECK constraint.' }];
  }
  return [];
}

function fingerprintFields(tree: DocumentTree, actions: readonly string[]): Violation[] {
  const section = findTop(tree, /fingerprint/i);
  const analysis = findTop(tree, /action analysis/i);
  if (actions.length === 0) return [{ constraint: 'fingerprint-fields', message: 'No protected action, so no fingerprint fields are listed.' }];
  const out: Violation[] = [];
  for (const action of actions) {
    const child = section?.children.find((s) => mentions(s.title, action));
    const rows = child ? blocksOf(child).filter((b): b is Extract<DocBlock, { kind: 'row' }> => b.kind === 'row') : [];
    const headerIndex = rows.findIndex((row) => row.header && /^field$/i.test(row.cells[0] ?? ''));
    const after = headerIndex < 0 ? [] : rows.slice(headerIndex + 1);
    const nextHeader = after.findIndex((row) => row.header);
    const fieldRows = nextHeader < 0 ? after : after.slice(0, nextHeader);
    const listed = fieldRows.some((row) => !/^\(method and path\)$/.test(row.cells[0] ?? '') && (row.cells[0] ?? '').length > 0);
    // Or one per-action table: a header row with "Action" and "Hashed fields", and this action's row filled in.
    const all = section ? blocksOf(section).filter((b): b is Extract<DocBlock, { kind: 'row' }> => b.kind === 'row') : [];
    const head = all.find((row) => row.header && /^action$/i.test(row.cells[0] ?? '') && row.cells.some((cell) => /^hashed fields$/i.test(cell)));
    const column = head ? head.cells.findIndex((cell) => /^hashed fields$/i.test(cell)) : -1;
    const tabled = column > 0 && all.some((row) => !row.header && mentions(row.cells[0] ?? '', action) && (row.cells[column] ?? '').replace(/\(method and path\),?/g, '').trim().length > 0);
    const analysed = analysis?.children.find((s) => mentions(s.title, action));
    const item = analysed ? labelled(analysed, 'Semantically significant fields')[0] : undefined;
    if (!listed && !tabled && !(item && item.split(':').slice(1).join(':').trim().length > 0)) {
      out.push({ constraint: 'fingerprint-fields', message: `Action ${action} lists no fingerprint fields.` });
    }
  }
  return out;
}

function justified(kind: 'lock-timeout' | 'key-expiry', label: string, reasons: RegExp, tree: DocumentTree, actions: readonly string[]): Violation[] {
  const statements = all(tree.sections).flatMap((section) => section.blocks.flatMap((block) => (block.kind === 'text' && block.text.toLowerCase().startsWith(`${label.toLowerCase()}:`) ? [block.text] : [])));
  const good = statements.filter((text) => DURATION.test(text) && words(text) >= 12 && reasons.test(text));
  if (good.length === 0) return [{ constraint: kind, message: `No “${label}” is stated with a value and its justification.` }];
  if (actions.length <= 1) return [];
  return actions
    .filter((action) => !good.some((text) => mentions(text, action)))
    .map((action) => ({ constraint: kind, message: `No justified ${label.toLowerCase()} for action ${action}.` }));
}

function antiPatterns(tree: DocumentTree): Violation[] {
  const section = findTop(tree, /anti-?pattern/i);
  const rows = section ? blocksOf(section).filter((b) => b.kind === 'row' && !b.header) : [];
  const items = section ? texts(section).filter((text) => words(text) >= 4) : [];
  if (!section || (rows.length === 0 && items.length < 2)) return [{ constraint: 'anti-pattern', message: 'No anti-pattern is called out.' }];
  return [];
}

function concurrentTest(tree: DocumentTree): Violation[] {
  const section = findTop(tree, /test scenario/i);
  const rows = section ? blocksOf(section).filter((b): b is Extract<DocBlock, { kind: 'row' }> => b.kind === 'row' && !b.header) : [];
  const row = rows.find((r) => /concurren/i.test(r.cells[0] ?? ''));
  if (!row) return [{ constraint: 'concurrent-test', message: 'No concurrent-duplicate test case in the test scenarios.' }];
  if (!row.cells.slice(1).some((cell) => /exactly one|only one|one (?:succeeds|executes)|409/i.test(cell))) {
    return [{ constraint: 'concurrent-test', message: 'The concurrent-duplicate test case states no expected behaviour (exactly one execution).' }];
  }
  return [];
}

/**
 * Runs every constraint on a parsed document.
 * @example checkTree(htmlTree(html)).map((v) => v.constraint)
 */
export function checkTree(tree: DocumentTree): Violation[] {
  const actions = expectedActions(tree);
  return [
    ...recoveryPaths(tree, actions),
    ...storeDdl(tree),
    ...fingerprintFields(tree, actions),
    ...justified('lock-timeout', 'Lock timeout', /because|buffer|duration|p99|heartbeat|crash/i, tree, actions),
    ...justified('key-expiry', 'Key expiry', /window|retention|retry|retries|provider|redeliver|because/i, tree, actions),
    ...antiPatterns(tree),
    ...concurrentTest(tree),
  ];
}
