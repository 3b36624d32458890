/**
 * Where a provider key is set when it is not written inside the call itself: on the objects the
 * call passes (`RequestOptions opts = RequestOptions.builder().setIdempotencyKey(k).build()`,
 * `$requestOptions['idempotencyKey'] = $k`, `input.PaypalRequestId = k`), on a request object the
 * code constructs and then executes (`request.Headers.Add("PayPal-Request-Id", k)`), or inside a
 * same-file helper that builds the options (`options(key)`). The pattern scanners read these
 * statements the way the TS scanner follows a variable through its function.
 */
import { isCloser, scanTopLevel } from '../text-scan.js';

/** A statement (or helper body) that may carry the key, at its offset in the file. */
export interface KeyCarrier {
  readonly text: string;
  readonly offset: number;
  /** For a helper body: each parameter name with the argument the call passes for it. */
  readonly bindings?: ReadonlyMap<string, { readonly text: string; readonly offset: number }>;
}

// A line that starts a function or method, in the languages the pattern scanners read; the backward
// search for a variable's statements stops there so that another function's `request` is not read.
const FUNCTION_START = /^[ \t]*(?:(?:(?:public|private|protected|internal|static|async|override|virtual|final|synchronized|abstract|sealed|suspend|open)\s+)+[^=;()\n]*\(|(?:async\s+)?def\s+\w+|(?:[\w\s]*\s)?function\b|func\s|fun\s|\w[\w<>[\],.? ]*\s+\w+\s*\([^;{}\n]*\)\s*(?:throws\s+[\w., ]+)?\s*\{\s*$)/;
const CONTROL = /^[ \t]*(?:\}?\s*(?:else\s+)?if|for|foreach|while|switch|catch|using|lock|try|return|new)\b/;
/** How far the statements of one function are looked for, in lines. */
const MAX_LINES = 80;
/** The longest statement read (a builder chain or an object initializer). */
const MAX_STATEMENT = 3000;

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the start of the line that opens the function around `offset` (or MAX_LINES above it). */
export function functionStartBefore(text: string, offset: number): number {
  let start = lineStart(text, offset);
  for (let i = 0; i < MAX_LINES && start > 0; i += 1) {
    const previous = lineStart(text, start - 1);
    const line = text.slice(previous, start - 1);
    if (FUNCTION_START.test(line) && !CONTROL.test(line)) return previous;
    start = previous;
  }
  return start;
}

/** Offset where the next function starts after `offset` (or MAX_LINES below it). */
function functionEndAfter(text: string, offset: number): number {
  let end = text.indexOf('\n', offset);
  for (let i = 0; i < MAX_LINES && end >= 0; i += 1) {
    const next = text.indexOf('\n', end + 1);
    const line = text.slice(end + 1, next < 0 ? text.length : next);
    if (FUNCTION_START.test(line) && !CONTROL.test(line)) return end;
    if (next < 0) return text.length;
    end = next;
  }
  return end < 0 ? text.length : end;
}

/**
 * The statement that starts at `from`: up to a `;` outside brackets and strings, or a line end
 * outside brackets that no continuation follows (a `.`/`->` chain on the next line, an operator at
 * the end of this one) — so Python, Ruby and Go statements end without a semicolon.
 */
export function statementAt(text: string, from: number): string {
  let depth = 0;
  let quote: string | undefined;
  const limit = Math.min(text.length, from + MAX_STATEMENT);
  for (let i = from; i < limit; i += 1) {
    const char = text[i] ?? '';
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = undefined;
      else if (char === '\n' && quote !== '`') quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) {
      depth -= 1;
      if (depth < 0) return text.slice(from, i);
    } else if (char === ';' && depth === 0) return text.slice(from, i + 1);
    else if (char === '\n' && depth === 0) {
      const before = text.slice(from, i).trimEnd();
      const after = text.slice(i + 1, i + 200).trimStart();
      // An Allman-style object initializer (`new CreateOrderInput\n{ … }`) continues on the next line too.
      const continues = /[=+,.(\\]$|->$|&&$|\|\|$/.test(before) || /^(?:\.|->|\?\.|\+|\?\?|:|\{)/.test(after);
      if (!continues) return text.slice(from, i);
    }
  }
  return text.slice(from, limit);
}

/** The text from `from` up to the `}` that closes the block it is in. */
function blockAt(text: string, from: number): string {
  let depth = 0;
  const limit = Math.min(text.length, from + MAX_STATEMENT);
  for (let i = from; i < limit; i += 1) {
    const char = text[i] ?? '';
    if (char === '{') depth += 1;
    else if (char === '}' && (depth -= 1) < 0) return text.slice(from, i);
  }
  return text.slice(from, limit);
}

/** The top-level arguments of a call's text `callee(a, b, c)`. */
function argumentsOf(call: string): { text: string; offset: number }[] {
  const open = call.indexOf('(');
  if (open < 0) return [];
  const out: { text: string; offset: number }[] = [];
  let start = open + 1;
  scanTopLevel(call, open + 1, (char, i) => {
    // The call's own `)` ends the list; an unclosed call (text cut short) drops its last argument.
    if (char !== ',' && !isCloser(char)) return false;
    out.push({ text: call.slice(start, i), offset: start });
    start = i + 1;
    return char !== ',';
  });
  return out
    .map((arg) => {
      // A named argument (`requestOptions: ro`, `options=ro`) passes its value.
      const named = /^\s*\w+\s*[:=](?![:=])\s*/.exec(arg.text);
      const lead = named ? named[0].length : /^\s*/.exec(arg.text)?.[0].length ?? 0;
      return { text: arg.text.slice(lead).trimEnd(), offset: arg.offset + lead };
    })
    .filter((arg) => arg.text.length > 0);
}

const escape = (name: string): string => name.replace(/[$]/g, '\\$');

/** Every statement in `[from, to)` that declares, assigns or mutates `name`. */
function statementsOf(text: string, name: string, from: number, to: number): KeyCarrier[] {
  const n = escape(name);
  // `Type name =`, `var name =`, `$name =`, `name :=`, `name: T =`, `name[...] =`, `name.x…`, `name->x…`.
  const pattern = new RegExp(`(?:^|[;{}])[ \\t]*(?:(?:final|var|val|let|const|readonly)\\s+)?(?:[\\w.<>\\[\\]?,]+\\s+)?${n}\\b\\s*(?::\\s*[\\w.\\[\\], |]+?\\s*)?(?::=|=(?![=>])|\\[|\\.(?!\\.)|->|\\?\\.)`, 'gm');
  const out: KeyCarrier[] = [];
  for (const m of text.slice(from, to).matchAll(pattern)) {
    const start = from + (m.index ?? 0) + (/^[;{}]?\s*/.exec(m[0])?.[0].length ?? 0);
    out.push({ text: statementAt(text, start), offset: start });
  }
  return out;
}

/** A same-file helper `name(params) { … }` / `def name(params):`, with its body and parameter names. */
function helperBody(text: string, name: string): { body: string; offset: number; params: string[] } | undefined {
  const def = new RegExp(`(?:^|\\s)(?:def\\s+|function\\s+|fun\\s+|func\\s+)?${escape(name)}\\s*\\(([^()]*)\\)\\s*(?::\\s*[\\w.?<>]+\\s*)?(?:throws\\s+[\\w., ]+)?\\s*(\\{|:\\s*\\n)`, 'm').exec(text);
  if (!def) return undefined;
  // A declaration, not a call: a type or a `def`/`function` keyword precedes the name on its line.
  const line = text.slice(lineStart(text, def.index + 1), def.index + def[0].indexOf(name));
  if (!/(?:def|function|fun|func)\s*$|[\w>\]?]\s+$/.test(line) || /\b(?:return|new|await)\s+$|=\s*$/.test(line)) return undefined;
  const params = (def[1] ?? '').split(',').map((p) => /(\$?\w+)\s*(?::[^,]*)?(?:=[^,]*)?$/.exec(p.trim().replace(/\s*:\s*[\w.[\]| ]+$/, ''))?.[1] ?? '').filter(Boolean);
  const open = def.index + def[0].length;
  // A brace body ends where its `{` closes (statementAt stops at the unmatched `}`); a Python body at the next unindented line.
  const body = def[2] === '{' ? blockAt(text, open) : text.slice(open, open + 1500).split(/\n(?=\S)/)[0] ?? '';
  return { body, offset: open, params };
}

/**
 * The statements around a payment call that can carry its key: for each object the call passes by
 * name, its declaration and every later assignment or setter call before the call in the same
 * function; for a helper call passed as an argument, the helper's body with its parameters bound.
 * @example keyCarriers('var o = new RequestOptions { IdempotencyKey = k };\ns.CreateAsync(p, o);', 52, 's.CreateAsync(p, o)')[0]?.text
 * // 'var o = new RequestOptions { IdempotencyKey = k };'
 */
export function keyCarriers(text: string, callIndex: number, call: string): KeyCarrier[] {
  const from = functionStartBefore(text, callIndex);
  const callOpen = call.indexOf('(');
  const out: KeyCarrier[] = [];
  for (const arg of argumentsOf(call)) {
    const name = /^(?:\$this->|this\.|self\.)?(\$?[A-Za-z_]\w*)$/.exec(arg.text)?.[1];
    if (name) {
      out.push(...statementsOf(text, name, from, callIndex));
      continue;
    }
    const helper = /^(?:\$this->|this\.|self\.|static::|self::)?([A-Za-z_]\w*)\s*\(/.exec(arg.text);
    if (!helper || callOpen < 0) continue;
    const found = helperBody(text, helper[1] ?? '');
    if (!found) continue;
    const passed = argumentsOf(arg.text);
    const bindings = new Map(found.params.map((param, i) => [param, passed[i] ? { text: passed[i].text, offset: callIndex + arg.offset + passed[i].offset } : undefined] as const)
      .filter((entry): entry is [string, { text: string; offset: number }] => entry[1] !== undefined));
    out.push({ text: found.body, offset: found.offset, bindings });
  }
  return out;
}

/**
 * The statements that set up a request object the code constructs (`request = new
 * OrdersCaptureRequest(id)`, then `request.payPalRequestId(k)`): the rest of the constructing
 * statement, and every later statement of that function that starts with the variable.
 * @example constructedCarriers('r = OrdersCreateRequest()\nr.headers["PayPal-Request-Id"] = k\nclient.execute(r)', 4)[1]?.text
 * // 'r.headers["PayPal-Request-Id"] = k'
 */
export function constructedCarriers(text: string, matchIndex: number): KeyCarrier[] {
  const start = lineStart(text, matchIndex);
  const statement = { text: statementAt(text, start), offset: start };
  const name = /(\$?[A-Za-z_]\w*)\s*(?::\s*[\w.<>]+\s*)?=\s*(?:new\s+)?[\w.\\]*$/.exec(text.slice(start, matchIndex))?.[1];
  if (!name) return [statement];
  const end = functionEndAfter(text, matchIndex);
  const after = statementsOf(text, name, start + statement.text.length, end).filter((s) => new RegExp(`^${escape(name)}\\s*(?:\\.|->|\\[)`).test(s.text));
  return [statement, ...after];
}

/**
 * A header set through a constant that names it (`PAYPAL_REQUEST_ID_HEADER = "PayPal-Request-Id"`,
 * then `request.header(PAYPAL_REQUEST_ID_HEADER, k)`): the value set, with its offset in `statement`.
 * @example constantHeaderKey('static final String H = "PayPal-Request-Id";', 'request.header(H, key)') // { value: 'key', index: 18 }
 */
export function constantHeaderKey(text: string, statement: string): { value: string; index: number } | undefined {
  const names = [...text.matchAll(/\b([A-Za-z_]\w*)\s*=\s*["'](?:PayPal-Request-Id|Idempotency-Key)["']/gi)].map((m) => m[1] ?? '');
  if (names.length === 0) return undefined;
  const setter = new RegExp(`(?:\\.|->)\\s*(?:header|setHeader|addHeader|AddHeader|WithHeader|withHeader|Headers\\.Add)\\(\\s*(?:[\\w.]+\\.)?(?:${names.join('|')})\\s*,\\s*`).exec(statement);
  if (!setter) return undefined;
  const index = setter.index + setter[0].length;
  const value = statementAt(statement, index).trim();
  // statementAt stops at the setter's own closing parenthesis.
  return value.length > 0 ? { value, index } : undefined;
}
