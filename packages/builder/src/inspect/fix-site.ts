/**
 * Fix sites for provider calls, from character offsets in a file's text: the line as written plus
 * the change, so that the document's diff is built from the real line. Shared by the TS scanner
 * (offsets from the syntax tree) and the pattern scanners (offsets from the call's text).
 */
import { formatLocation, lineAtOffset } from './location.js';
import type { FixSite } from './types.js';

export { KEY_PLACEHOLDER } from '../answers-provider-calls.js';

/**
 * A fix that replaces `length` characters at `offset` (0 = inserts) with `text`, on one line.
 * Undefined when the span crosses a line end: the fix is then described, not diffed.
 * @example fixSiteAt('a.ts', 'x(k)\n', 2, 1, '{{KEY}}') // { location: 'a.ts:1', line: 'x(k)', column: 2, length: 1, text: '{{KEY}}' }
 */
export function fixSiteAt(relPath: string, text: string, offset: number, length: number, insert: string): FixSite | undefined {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const endOfLine = text.indexOf('\n', offset);
  const end = endOfLine < 0 ? text.length : endOfLine;
  if (offset + length > end) return undefined;
  const line = text.slice(start, end).replace(/\r$/, '');
  return { location: formatLocation(relPath, lineAtOffset(text, offset)), line, column: offset - start, length, text: insert };
}

function previousCode(text: string, offset: number): string {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i] ?? '')) i -= 1;
  return text[i] ?? '';
}

/**
 * A new last argument before the call's closing parenthesis (at `closeParen`), with the comma the
 * text needs (none after a trailing comma or an empty list).
 * @example appendArgument('a.ts', 'f(x)', 3, '{ k: 1 }').text // ', { k: 1 }'
 */
export function appendArgument(relPath: string, text: string, closeParen: number, argument: string): FixSite | undefined {
  const before = previousCode(text, closeParen);
  const insert = before === ',' || before === '(' ? argument : `, ${argument}`;
  // `)` alone on its line after a trailing comma: the argument goes on that line, before it.
  return fixSiteAt(relPath, text, closeParen, 0, insert);
}

/**
 * A new first entry in the object or dict whose `{` is at `openBrace`: on a new line when the
 * brace ends its line (indented like the next line), else right after the brace.
 * @example addEntry('a.ts', 'f({ a })', 2, 'k: 1').text // ' k: 1,'
 */
export function addEntry(relPath: string, text: string, openBrace: number, entry: string): FixSite | undefined {
  const lineEnd = text.indexOf('\n', openBrace);
  const rest = text.slice(openBrace + 1, lineEnd < 0 ? text.length : lineEnd);
  if (rest.trim() === '' && lineEnd >= 0) {
    const next = text.slice(lineEnd + 1, text.indexOf('\n', lineEnd + 1) < 0 ? text.length : text.indexOf('\n', lineEnd + 1));
    const indent = /^\s*/.exec(next)?.[0] ?? '';
    return fixSiteAt(relPath, text, openBrace + 1, rest.length, `${rest.replace(/\s+$/, '')}\n${indent}${entry},`);
  }
  return fixSiteAt(relPath, text, openBrace + 1, 0, ` ${entry},`);
}
