/**
 * Shared machinery for the pattern scanners (Python, JVM, Go, C#, Ruby, PHP): global regex
 * matches with their line, the full text of a call from its opening parenthesis, and the extent
 * of an indented (Python) or braced (C-family) block.
 */
import { lineAtOffset } from '../location.js';

// Scanners call these helpers once per match, many times per file: the global copy of each
// pattern and the split lines of the current text are made once, not on every call.
// Keyed by text: scanners often write their pattern as a literal inside a function, a new object per call.
const globalPatterns = new Map<string, RegExp>();
let splitText: string | undefined;
let splitLines: readonly string[] = [];

function globalOf(pattern: RegExp): RegExp {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  const key = `${flags}/${pattern.source}`;
  let global = globalPatterns.get(key);
  if (!global) {
    // Always a private copy: a caller's own global pattern may carry a `lastIndex` that matchAll would honour.
    global = new RegExp(pattern.source, flags);
    globalPatterns.set(key, global);
  }
  return global;
}

function linesOf(text: string): readonly string[] {
  if (text !== splitText) {
    splitText = text;
    splitLines = text.split('\n');
  }
  return splitLines;
}

export interface LineMatch {
  readonly match: RegExpMatchArray;
  /** 1-based line of the match start. */
  readonly line: number;
  readonly index: number;
}

/**
 * Every match of a global regex with its line.
 * @example matchesWithLines('a\n@app.post("/x")', /@(\w+)\.post/g)[0].line // 2
 */
export function matchesWithLines(text: string, pattern: RegExp): LineMatch[] {
  return [...text.matchAll(globalOf(pattern))].map((match) => ({ match, line: lineAtOffset(text, match.index ?? 0), index: match.index ?? 0 }));
}

/**
 * The text from `from` up to the parenthesis that closes the first one opened at or after it
 * (strings are not special-cased; good enough for argument lists of SDK calls).
 * @example callText('stripe.Refund.create(charge="ch", idempotency_key=k)\nx', 0) // whole first line
 */
export function callText(text: string, from: number, maxLength = 2000): string {
  const open = text.indexOf('(', from);
  if (open < 0) return text.slice(from, from + 200);
  let depth = 0;
  for (let i = open; i < text.length && i - from < maxLength; i += 1) {
    const char = text[i];
    if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return text.slice(from, i + 1);
    }
  }
  return text.slice(from, from + maxLength);
}

/**
 * 1-based last line of the brace block that opens at or after `line` (C-family languages).
 * @example braceBlockEnd('func a() {\n  x()\n}\n', 1) // 3
 */
export function braceBlockEnd(text: string, line: number): number {
  const lines = linesOf(text);
  let depth = 0;
  let opened = false;
  for (let i = line - 1; i < lines.length; i += 1) {
    for (const char of lines[i] ?? '') {
      if (char === '{') {
        depth += 1;
        opened = true;
      } else if (char === '}') {
        depth -= 1;
        if (opened && depth === 0) return i + 1;
      }
    }
  }
  return lines.length;
}

/**
 * 1-based last line of the Python block whose header (a `def`) is on `line`: the last line
 * before indentation returns to the header's level or less. A header that spans lines
 * (`class X(\n    A,\n):`) ends on `headerEnd`: its closing `):` may sit at the header's own
 * level, so the body is measured from there, at the indentation of the header's first line.
 * @example indentBlockEnd('def a():\n    x = 1\n\ny = 2', 1) // 2
 * @example indentBlockEnd('class X(\n    A,\n):\n    a: int\n', 1, 3) // 4
 */
export function indentBlockEnd(text: string, line: number, headerEnd = line): number {
  const lines = linesOf(text);
  const header = lines[line - 1] ?? '';
  const base = header.length - header.trimStart().length;
  let last = headerEnd;
  for (let i = headerEnd; i < lines.length; i += 1) {
    const current = lines[i] ?? '';
    // A comment may sit at any indentation (often column 0 inside a body): it never ends the block.
    if (current.trim() === '' || current.trimStart().startsWith('#')) continue;
    if (current.length - current.trimStart().length <= base) break;
    last = i + 1;
  }
  return last;
}

/**
 * The lines `start..end` (1-based, inclusive) joined back into text.
 * @example sliceLines('a\nb\nc', 2, 3) // 'b\nc'
 */
export function sliceLines(text: string, start: number, end: number): string {
  return linesOf(text).slice(start - 1, end).join('\n');
}

/**
 * First line at or after `line` that matches `pattern`, with the match.
 * @example nextLineMatching('@x\ndef pay(a):', 1, /def (\w+)/) // { line: 2, match: [...] }
 */
export function nextLineMatching(text: string, line: number, pattern: RegExp, lookahead = 8): { line: number; match: RegExpExecArray } | undefined {
  const lines = linesOf(text);
  for (let i = line - 1; i < Math.min(lines.length, line - 1 + lookahead); i += 1) {
    const match = pattern.exec(lines[i] ?? '');
    if (match) return { line: i + 1, match };
  }
  return undefined;
}
