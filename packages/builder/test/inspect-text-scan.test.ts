/**
 * The bracket- and string-aware walk the provider-key scanners share: separators inside strings
 * and nested brackets are not top level; an unmatched closer is.
 */
import { describe, expect, it } from 'vitest';
import { scanTopLevel } from '../src/inspect/text-scan.js';

const firstOf = (stops: string) => (text: string, from = 0) => scanTopLevel(text, from, (char) => stops.includes(char));

describe('scanTopLevel', () => {
  const comma = firstOf(',');
  it('skips separators inside nested brackets and in every quote style, escapes included', () => {
    expect(comma('f(a, b), c')).toBe(7);
    expect(comma('{ a: [1, 2] }, c')).toBe(13);
    expect(comma(`"a,b" 'c,d' \`e,f\`, g`)).toBe(17);
    expect(comma(`"a\\",b", c`)).toBe(7);
  });

  it('hands the unmatched closer of the enclosing list to the visitor, not a nested one', () => {
    const closer = firstOf(')');
    expect(closer('a, (b), c) d', 0)).toBe(9);
  });

  it('gives text.length when nothing stops it, and starts at from', () => {
    expect(comma('no separator')).toBe('no separator'.length);
    expect(comma('a, b, c', 2)).toBe(4);
  });
});
