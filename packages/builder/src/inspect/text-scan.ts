/**
 * Reading source as text, bracket- and string-aware: the one walk the provider-key scanners use to
 * find where an expression or an argument ends without a parser for each language.
 */

const QUOTES = `"'\``;
const OPENERS = '([{';
const CLOSERS = ')]}';

/**
 * Walks `text` from `from`, skipping string literals ("…", '…', `…`, backslash escapes) and
 * balanced brackets, and hands `visit` every character met at the top level — including a closing
 * bracket that has no opener after `from`, which ends the enclosing list. Stops where `visit`
 * returns true and gives that index; gives `text.length` when it never does.
 * @example scanTopLevel('a(1, 2), b', 0, (char) => char === ',') // 7
 */
export function scanTopLevel(text: string, from: number, visit: (char: string, index: number) => boolean): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (QUOTES.includes(char)) quote = char;
    else if (OPENERS.includes(char)) depth += 1;
    else if (depth > 0 && CLOSERS.includes(char)) depth -= 1;
    else if (depth === 0 && visit(char, i)) return i;
  }
  return text.length;
}

/**
 * `text` split at `separator` where it stands at the top level (outside strings and brackets);
 * the parts as written, untrimmed.
 * @example splitAtTopLevel("a, f(b, c), 'd,e'", ',') // ['a', ' f(b, c)', " 'd,e'"]
 */
export function splitAtTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  for (let at = 0; ;) {
    const stop = scanTopLevel(text, at, (char) => char === separator);
    parts.push(text.slice(at, stop));
    if (stop >= text.length) return parts;
    at = stop + 1;
  }
}

/** Whether `char` closes a bracket. */
export function isCloser(char: string): boolean {
  return char.length === 1 && CLOSERS.includes(char);
}
