/**
 * Source text read as code by the regex scanners of other languages: comments (and, on request,
 * the contents of string and char literals, quotes kept) replaced by spaces, so that offsets and
 * line numbers stay those of the original. One small lexer, parameterised by language family:
 *
 * - `csharp`: `//`, `/* *\/`; `"…"`, verbatim `@"…"`, interpolated `$"{…}"` (holes skipped as code),
 *   raw `"""…"""`, char literals `'x'`.
 * - `jvm` (Java, Kotlin): `//`, `/* *\/`; `"…"`, `'x'`, text blocks and raw strings `"""…"""`.
 * - `go`: `//`, `/* *\/`; `"…"`, runes `'x'`, raw strings in backquotes (multi-line, no escapes).
 * - `ruby`: `#`, `=begin`…`=end`; `"…"` and backquotes with `#{…}` interpolation, `'…'`, heredocs.
 * - `php`: `//`, `#` (not a `#[` attribute), `/* *\/`; `"…"`, `'…'`, backquotes, heredocs/nowdocs.
 * - `js` (TypeScript, JavaScript): `//`, `/* *\/`; `"…"`, `'…'`, template literals (multi-line, holes
 *   taken as part of the literal). A regular expression literal is not recognised (`/\/\//` reads as a comment).
 *
 * Block comments do not nest in any of these languages: `/* a /* b *\/` ends at the first `*\/`.
 */

export type CodeFamily = 'csharp' | 'jvm' | 'go' | 'ruby' | 'php' | 'js';

export interface MaskOptions {
  /** Blank the contents of string and char literals too (quotes kept). Default: comments only. */
  readonly strings?: boolean;
}

/** A literal read at an offset: its contents are `[from, to)`, and the lexer resumes at `end`. */
interface Literal {
  readonly from: number;
  readonly to: number;
  readonly end: number;
}

interface FamilySyntax {
  /** Markers that comment out the rest of their line. */
  readonly line: readonly string[];
  /** A line marker followed by this is code (PHP 8 attributes `#[Route(…)]`). */
  readonly notComment?: RegExp;
  /** `/* … *\/` block comments. */
  readonly block: boolean;
  /** Ruby's embedded documents: from a line starting `=begin` to one starting `=end`. */
  readonly embeddedDocs?: boolean;
  /** A heredoc opener (`<<~SQL`, `<<<EOT`), group 2 its terminator: its body is a string, whatever quotes it holds. */
  readonly heredoc?: RegExp;
  /** The string or char literal opening at `i`, if one does. */
  readonly literal: (text: string, i: number) => Literal | undefined;
  /** Carriage returns survive blanking (Ruby, PHP) besides line feeds (all). */
  readonly keepCarriageReturns?: boolean;
}

const SYNTAX: Readonly<Record<CodeFamily, FamilySyntax>> = {
  csharp: { line: ['//'], block: true, literal: csharpLiteral },
  jvm: { line: ['//'], block: true, literal: (text, i) => textBlock(text, i) ?? quoted(text, i, `"'`, '') },
  go: { line: ['//'], block: true, literal: (text, i) => quoted(text, i, '"\'`', '`') },
  ruby: {
    line: ['#'], block: false, embeddedDocs: true, keepCarriageReturns: true,
    heredoc: /^<<[~-]?(["'`]?)([A-Za-z_]\w*)\1/, literal: (text, i) => scriptLiteral(text, i, true),
  },
  js: { line: ['//'], block: true, literal: (text, i) => templateLiteral(text, i) ?? quoted(text, i, `"'`, '') },
  php: {
    line: ['//', '#'], notComment: /^#\[/, block: true, keepCarriageReturns: true,
    heredoc: /^<<<[ \t]*(["']?)([A-Za-z_]\w*)\1/, literal: (text, i) => scriptLiteral(text, i, false),
  },
};

const FAMILY_BY_EXTENSION: Readonly<Record<string, CodeFamily>> = {
  cs: 'csharp', java: 'jvm', kt: 'jvm', kts: 'jvm', go: 'go', rb: 'ruby', php: 'php',
  ts: 'js', tsx: 'js', mts: 'js', cts: 'js', js: 'js', jsx: 'js', mjs: 'js', cjs: 'js',
};

/**
 * The family of a file by its extension (case-insensitive), or undefined for another language.
 * @example codeFamilyOf('app/models/order.rb') // 'ruby'
 */
export function codeFamilyOf(relPath: string): CodeFamily | undefined {
  return FAMILY_BY_EXTENSION[relPath.slice(relPath.lastIndexOf('.') + 1).toLowerCase()];
}

/**
 * `text` with every comment replaced by spaces (line breaks kept); with `strings`, the contents of
 * string and char literals too, their quotes kept. A `//` inside a string (`"http://x"`) is no
 * comment, and an apostrophe in a comment opens no string.
 * @example maskCode('a("{x}"); // b(', 'csharp', { strings: true }) // 'a("   ");      '
 * @example maskCode('x = 1 # Stripe::Charge.create', 'ruby').trimEnd() // 'x = 1'
 */
export function maskCode(text: string, family: CodeFamily, { strings = false }: MaskOptions = {}): string {
  const syntax = SYNTAX[family];
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let i = from; i < to; i += 1) if (out[i] !== '\n' && !(syntax.keepCarriageReturns === true && out[i] === '\r')) out[i] = ' ';
  };
  // Terminators of heredocs opened on the current line: their bodies start on the next one.
  const heredocs: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (char === '\n' && heredocs.length > 0) {
      i = heredocsEnd(text, i + 1, heredocs.splice(0), strings ? blank : undefined);
      continue;
    }
    if (syntax.embeddedDocs === true && (i === 0 || text[i - 1] === '\n') && /^=begin\b/.test(text.slice(i, i + 7))) {
      const close = /^=end\b.*$/m.exec(text.slice(i));
      const end = close ? i + close.index + close[0].length : text.length;
      blank(i, end);
      i = end;
      continue;
    }
    const heredoc = char === '<' ? syntax.heredoc?.exec(text.slice(i, i + 80)) : undefined;
    if (heredoc) {
      heredocs.push(heredoc[2] ?? '');
      i += heredoc[0].length;
      continue;
    }
    const literal = syntax.literal(text, i);
    if (literal) {
      if (strings) blank(literal.from, literal.to);
      i = literal.end;
      continue;
    }
    if (syntax.block && char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      blank(i, end);
      i = end;
      continue;
    }
    if (syntax.line.some((marker) => text.startsWith(marker, i)) && syntax.notComment?.test(text.slice(i, i + 2)) !== true) {
      const newline = text.indexOf('\n', i);
      const end = newline < 0 ? text.length : newline;
      blank(i, end);
      i = end;
      continue;
    }
    i += 1;
  }
  return out.join('');
}

/** Offset of the line after the last of these heredocs' terminator lines (each `  SQL` alone on its line), read in order from `from`; `blank` gets each body. */
function heredocsEnd(text: string, from: number, terminators: readonly string[], blank?: (from: number, to: number) => void): number {
  let at = from;
  for (const terminator of terminators) {
    const close = new RegExp(`^[ \\t]*${terminator};?[ \\t]*\\r?$`, 'm').exec(text.slice(at));
    if (!close) {
      blank?.(at, text.length);
      return text.length;
    }
    blank?.(at, at + close.index);
    at += close.index + close[0].length;
  }
  return at;
}

/** A `'`/`"` (or other `quotes`) literal ending at its quote or, unless its quote is in `raw` (no escapes, multi-line), at the line's end. */
function quoted(text: string, i: number, quotes: string, raw: string): Literal | undefined {
  const quote = text.charAt(i);
  if (quote === '' || !quotes.includes(quote)) return undefined;
  const multiline = raw.includes(quote);
  let j = i + 1;
  while (j < text.length && text[j] !== quote && (multiline || text[j] !== '\n')) j += multiline || text[j] !== '\\' ? 1 : 2;
  return { from: i + 1, to: Math.min(j, text.length), end: j + 1 };
}

/** A JS template literal: backquote to backquote across lines, backslash escapes. */
function templateLiteral(text: string, i: number): Literal | undefined {
  if (text.charAt(i) !== '`') return undefined;
  let j = i + 1;
  while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
  return { from: i + 1, to: Math.min(j, text.length), end: j + 1 };
}

/**
 * `text` with its comments blanked when its language is one of the families, else as it is.
 * @example maskComments('a(); // b()', 'src/app.ts') // 'a();       '
 */
export function maskComments(text: string, relPath: string): string {
  const family = codeFamilyOf(relPath);
  return family ? maskCode(text, family) : text;
}

/** A Java text block or Kotlin raw string, `"""` to the next `"""`. */
function textBlock(text: string, i: number): Literal | undefined {
  if (!text.startsWith('"""', i)) return undefined;
  const close = text.indexOf('"""', i + 3);
  const stop = close < 0 ? text.length : close;
  return { from: i + 3, to: stop, end: stop + 3 };
}

/** A Ruby or PHP string: multi-line, backslash escapes; in Ruby `"…"` and backquotes, `#{…}` is code whose `#` opens no comment. */
function scriptLiteral(text: string, start: number, interpolation: boolean): Literal | undefined {
  const quote = text.charAt(start);
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  const interpolates = interpolation && quote !== "'";
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') i += 2;
    else if (char === quote) return { from: start + 1, to: i, end: i + 1 };
    else if (interpolates && char === '#' && text[i + 1] === '{') {
      let depth = 0;
      for (; i < text.length; i += 1) {
        if (text[i] === '{') depth += 1;
        else if (text[i] === '}' && --depth === 0) break;
      }
      i += 1;
    } else i += 1;
  }
  return { from: start + 1, to: text.length, end: text.length };
}

/** A C# string (raw, verbatim, interpolated, plain) or char literal; the contents exclude as many quotes as opened it. */
function csharpLiteral(text: string, i: number): Literal | undefined {
  const char = text[i];
  if (char === "'") {
    const close = /^'(?:\\.[^']*|[^'\\\n])'/.exec(text.slice(i, i + 12));
    return close ? { from: i + 1, to: i + close[0].length - 1, end: i + close[0].length } : undefined;
  }
  if (char !== '"') return undefined;
  const end = csharpStringEnd(text, i);
  const quotes = /^"*/.exec(text.slice(i, i + 16))?.[0].length ?? 1;
  const open = quotes >= 3 ? quotes : 1;
  return { from: i + open, to: Math.max(i + open, end - open), end };
}

/**
 * The offset just past the C# string literal whose opening quote is at `quote` (prefix `$`/`@`
 * read before it; a plain string unclosed on its line ends at the line break).
 * @example csharpStringEnd('x = @"a\\";', 5) // 9
 */
export function csharpStringEnd(text: string, quote: number): number {
  let prefixStart = quote;
  while (prefixStart > 0 && (text[prefixStart - 1] === '$' || text[prefixStart - 1] === '@')) prefixStart -= 1;
  const prefix = text.slice(prefixStart, quote);
  const raw = /^"{3,}/.exec(text.slice(quote, quote + 16))?.[0];
  if (raw) {
    const close = text.indexOf(raw, quote + raw.length);
    return close < 0 ? text.length : close + raw.length;
  }
  const verbatim = prefix.includes('@');
  const interpolated = prefix.includes('$');
  for (let i = quote + 1; i < text.length; i += 1) {
    const char = text[i];
    if (!verbatim && char === '\\') i += 1;
    else if (!verbatim && char === '\n') return i;
    else if (interpolated && char === '{') {
      if (text[i + 1] === '{') i += 1;
      else i = holeEnd(text, i);
    } else if (char === '"') {
      if (verbatim && text[i + 1] === '"') i += 1;
      else return i + 1;
    }
  }
  return text.length;
}

/** The offset of the `}` closing an interpolation hole opened at `open` (strings inside it skipped). */
function holeEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') i = csharpStringEnd(text, i) - 1;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return text.length;
}
