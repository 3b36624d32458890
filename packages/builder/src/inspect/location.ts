/**
 * `path:line` helpers for non-TypeScript files, where findings come from line patterns and
 * manifest entries rather than a syntax tree.
 */

/**
 * Formats a finding's location the way editors and terminals link it.
 * @example formatLocation('src/app.ts', 12) // 'src/app.ts:12'
 */
export function formatLocation(relPath: string, line: number): string {
  return `${relPath}:${line}`;
}

/**
 * 1-based line number of the first occurrence of `needle` in `text` (line 1 when absent, so a
 * manifest finding still points at its file).
 * @example lineOf('{\n  "pg": "8"\n}', '"pg"') // 2
 */
export function lineOf(text: string, needle: string, from = 0): number {
  const index = text.indexOf(needle, from);
  return index < 0 ? 1 : lineAtOffset(text, index);
}

/**
 * 1-based line number of a character offset.
 * @example lineAtOffset('a\nb\nc', 4) // 3
 */
export function lineAtOffset(text: string, offset: number): number {
  const starts = lineStarts(text);
  // Binary search: the number of line starts at or before `offset` is its line.
  let low = 1;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

// The scanners ask for the line of many matches in one file in a row: the offsets of its line
// starts are computed once per text instead of counting newlines from the top for every match.
let indexedText: string | undefined;
let indexedStarts: number[] = [0];

function lineStarts(text: string): readonly number[] {
  if (text !== indexedText) {
    const starts = [0];
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    indexedText = text;
    indexedStarts = starts;
  }
  return indexedStarts;
}
