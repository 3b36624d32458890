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
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 10) line += 1;
  }
  return line;
}
