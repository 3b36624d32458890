/**
 * C# read as text, but structurally: comments and string contents blanked so that brackets,
 * keywords and `=>` in them no longer count; bracket matching; parameter lists; namespaces,
 * usings and type declarations (nested `Outer.Inner` included) with the fields a JSON body binds.
 */

import { csharpStringEnd, maskCode } from './code-mask.js';

/** A C# file: its text, the same text with comments and literal contents blanked, and its declarations. */
export interface CSharpSource {
  readonly text: string;
  /** Same length and line breaks as `text`; comments and the insides of string/char literals are spaces. */
  readonly masked: string;
  readonly types: readonly CSharpType[];
  /** `using X.Y;` namespaces (aliases and `using static` left out). */
  readonly usings: readonly string[];
  readonly namespaces: readonly NamespaceDecl[];
}

export interface CSharpType {
  readonly kind: 'class' | 'record' | 'struct' | 'interface';
  readonly name: string;
  /** Name qualified by the enclosing types (`Create.Command`), without the namespace. */
  readonly nested: string;
  readonly namespace: string;
  /** Offset of the `class`/`record`/… keyword. */
  readonly index: number;
  /** Primary-constructor parameter list (inside the parentheses), as offsets. */
  readonly parameters?: { readonly start: number; readonly end: number };
  /** Offsets of the body's `{` and `}`; absent for `record X(…);`. */
  readonly body?: { readonly open: number; readonly close: number };
}

interface NamespaceDecl {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export interface CSharpParameter {
  /** Attribute names without `Attribute` or a namespace (`FromBody`, `FromServices`). */
  readonly attributes: readonly string[];
  readonly type: string;
  readonly name: string;
}

const OPEN = '([{';
const CLOSE = ')]}';

/**
 * Offset of the bracket closing the one at `open` (`(`, `[` or `{`), on masked text; -1 when unclosed.
 * @example closingBracket('f(a(b), c)', 1) // 9
 */
export function closingBracket(masked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < masked.length; i += 1) {
    const char = masked[i] as string;
    if (OPEN.includes(char)) depth += 1;
    else if (CLOSE.includes(char)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Offset of the bracket opening the one closed at `close`, searching backwards; -1 when none. */
export function openingBracket(masked: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i -= 1) {
    const char = masked[i] as string;
    if (CLOSE.includes(char)) depth += 1;
    else if (OPEN.includes(char)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Offset of the `>` closing type arguments opened at `open` (`Results<Ok, NotFound>`), or -1 when
 * what follows is no type list (a comparison: it holds an operator, a call or a literal).
 */
function typeArgumentsEnd(masked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < masked.length; i += 1) {
    const char = masked[i] as string;
    if (char === '<') depth += 1;
    else if (char === '>') {
      depth -= 1;
      if (depth === 0) return i;
    } else if (!/[\w\s,.?[\]]/.test(char)) return -1;
  }
  return -1;
}

/**
 * Top-level comma-separated ranges of `masked[start, end)`. With `angles`, `<…>` nests too (type
 * lists); without, only type arguments right after a name do (`async Task<Results<Ok, NotFound>> (…) =>`
 * in an argument list), so a lambda's `=>` and comparison operators cannot unbalance it.
 */
export function splitTopLevel(masked: string, start: number, end: number, angles: boolean): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < end; i += 1) {
    const char = masked[i] as string;
    if (!angles && char === '<' && /\w/.test(masked[i - 1] ?? '')) {
      const close = typeArgumentsEnd(masked, i);
      if (close > 0 && close < end) i = close;
    } else if (OPEN.includes(char) || (angles && char === '<')) depth += 1;
    else if (CLOSE.includes(char) || (angles && char === '>')) depth -= 1;
    else if (char === ',' && depth === 0) {
      out.push({ start: from, end: i });
      from = i + 1;
    }
  }
  if (masked.slice(from, end).trim()) out.push({ start: from, end });
  return out;
}

/**
 * The parameters of a list written between `start` and `end` (the parentheses excluded).
 * @example parameters(parseCSharp(t), a, b) // `[FromBody] Create.Command command` → [{ attributes: ['FromBody'], type: 'Create.Command', name: 'command' }]
 */
export function parameters(source: Pick<CSharpSource, 'text' | 'masked'>, start: number, end: number): CSharpParameter[] {
  return splitTopLevel(source.masked, start, end, true).flatMap(({ start: from, end: to }) => {
    let part = source.masked.slice(from, to).trim();
    const attributes: string[] = [];
    for (let attr = /^\[([^\]]*)\]\s*/.exec(part); attr; attr = /^\[([^\]]*)\]\s*/.exec(part)) {
      for (const one of (attr[1] ?? '').split(/,(?![^(]*\))/)) {
        const name = /([\w.]+)\s*(?:\(|$)/.exec(one.trim())?.[1] ?? '';
        if (name) attributes.push(name.slice(name.lastIndexOf('.') + 1).replace(/Attribute$/, ''));
      }
      part = part.slice(attr[0].length);
    }
    part = part.replace(/^(?:(?:this|params|ref|out|in|scoped|readonly)\s+)+/, '').replace(/\s*=[\s\S]*$/, '');
    const named = /^([\s\S]+?)\s*\b(\w+)$/.exec(part);
    if (!named) return [];
    return [{ attributes, type: (named[1] ?? '').replace(/\s+/g, '').replace(/^global::/, ''), name: named[2] ?? '' }];
  });
}

function namespaceDecls(masked: string): NamespaceDecl[] {
  const out: NamespaceDecl[] = [];
  for (const match of masked.matchAll(/\bnamespace\s+([\w.]+)\s*([;{])/g)) {
    const at = (match.index ?? 0) + match[0].length - 1;
    const end = match[2] === ';' ? masked.length : closingBracket(masked, at);
    out.push({ name: match[1] ?? '', start: at, end: end < 0 ? masked.length : end });
  }
  return out;
}

/** The namespace in effect at `index`: nested block namespaces joined, a file-scoped one applying to the rest of the file. */
export function namespaceAt(namespaces: readonly NamespaceDecl[], index: number): string {
  return namespaces.filter((n) => n.start < index && index <= n.end).map((n) => n.name).join('.');
}

/** The type declarations of a file, outermost first, each with its nesting and namespace. */
function typeDecls(masked: string, namespaces: readonly NamespaceDecl[]): CSharpType[] {
  const out: CSharpType[] = [];
  for (const match of masked.matchAll(/\b(class|interface|struct|record)(?:\s+(?:class|struct))?\s+(?!where\b)(\w+)\s*/g)) {
    const index = match.index ?? 0;
    let at = index + match[0].length;
    if (masked[at] === '<') at = masked.indexOf('>', at) + 1;
    while (/\s/.test(masked[at] ?? '')) at += 1;
    let parameterRange: CSharpType['parameters'];
    if (masked[at] === '(') {
      const close = closingBracket(masked, at);
      if (close < 0) continue;
      parameterRange = { start: at + 1, end: close };
      at = close + 1;
    }
    // The base list and `where` clauses may hold parentheses (`: Base(x)`): the body is the first `{` or `;` outside them.
    let body: CSharpType['body'];
    for (let i = at; i < masked.length; i += 1) {
      const char = masked[i];
      if (char === '(') i = Math.max(i, closingBracket(masked, i));
      else if (char === ';') break;
      else if (char === '{') {
        const close = closingBracket(masked, i);
        if (close > 0) body = { open: i, close };
        break;
      }
    }
    const container = [...out].reverse().find((t) => t.body && t.body.open < index && index < t.body.close);
    const name = match[2] ?? '';
    const kind = match[1] as CSharpType['kind'];
    out.push({
      kind, name, index, namespace: namespaceAt(namespaces, index),
      nested: container ? `${container.nested}.${name}` : name,
      ...(parameterRange ? { parameters: parameterRange } : {}),
      ...(body ? { body } : {}),
    });
  }
  return out;
}

/** Parses the declarations the endpoint scanner needs. */
export function parseCSharp(text: string): CSharpSource {
  const masked = maskCode(text, 'csharp', { strings: true });
  const namespaces = namespaceDecls(masked);
  const usings = [...masked.matchAll(/^[ \t]*(?:global\s+)?using\s+(?!static\b)([\w.]+)\s*;/gm)].map((m) => m[1] ?? '');
  return { text, masked, namespaces, usings, types: typeDecls(masked, namespaces) };
}

/** The innermost type whose body holds `index`. */
export function enclosingType(source: CSharpSource, index: number): CSharpType | undefined {
  return [...source.types].reverse().find((t) => t.body && t.body.open < index && index < t.body.close);
}

// A property a JSON body can set: `public string Title { get; set; }`, `{ get; init; }`, `required`.
const PROPERTY = /\bpublic\s+(?:(?:required|virtual|override|abstract|new|sealed)\s+)*[\w.<>?,[\]\s]+?\s+(\w+)\s*\{\s*(?:get|init|set)\b/g;

/** The fields a type's JSON body binds: a record's positional parameters, then its own public properties (not a nested type's). */
function typeFields(source: CSharpSource, type: CSharpType): string[] {
  const fields = type.kind === 'record' && type.parameters ? parameters(source, type.parameters.start, type.parameters.end).map((p) => p.name) : [];
  if (type.body && type.kind !== 'interface') {
    const nestedBodies = source.types.filter((t) => t !== type && t.body && type.body && t.index > type.body.open && t.index < type.body.close).map((t) => t.body);
    const body = source.masked.slice(type.body.open, type.body.close);
    for (const match of body.matchAll(PROPERTY)) {
      const at = type.body.open + (match.index ?? 0);
      if (nestedBodies.some((b) => b && b.open < at && at < b.close)) continue;
      fields.push(match[1] ?? '');
    }
  }
  return [...new Set(fields.filter(Boolean))];
}

/**
 * Body shapes by every name a reference may use: a top-level type by its bare name and with its
 * namespace; a nested type (`Create.Command`, which C# code outside `Create` must write so) by its
 * nested name and with its namespace, never bare — homonyms such as `Command` abound.
 */
export function dotnetShapes(source: CSharpSource): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const type of source.types) {
    const fields = typeFields(source, type);
    if (fields.length === 0) continue;
    for (const name of [type.nested, type.namespace ? `${type.namespace}.${type.nested}` : '']) {
      if (name && !shapes.has(name)) shapes.set(name, fields);
    }
  }
  return shapes;
}

/**
 * The names a type written at `index` may refer to, likeliest first, as `A|B|…` (the inspector
 * takes the first that is a known shape): nested in the enclosing types, in the namespace and its
 * parents, in the usings, then as written.
 * @example typeCandidates(source, 'Create.Command', at) // 'Conduit.Features.Users.Create.Command|…|Create.Command'
 */
export function typeCandidates(source: CSharpSource, written: string, index: number): string {
  const type = written.replace(/\?$/, '').replace(/^global::/, '');
  if (!/^[\w.]+$/.test(type)) return type;
  const namespace = namespaceAt(source.namespaces, index);
  const scopes: string[] = [];
  for (let ns = namespace; ns; ns = ns.includes('.') ? ns.slice(0, ns.lastIndexOf('.')) : '') scopes.push(ns);
  const enclosing = enclosingType(source, index)?.nested ?? '';
  const nestings: string[] = [];
  for (let t = enclosing; t; t = t.includes('.') ? t.slice(0, t.lastIndexOf('.')) : '') nestings.push(t);
  const candidates = [
    ...nestings.flatMap((t) => [namespace ? `${namespace}.${t}.${type}` : '', `${t}.${type}`]),
    ...scopes.map((ns) => `${ns}.${type}`),
    ...source.usings.map((ns) => `${ns}.${type}`),
    type,
  ];
  return [...new Set(candidates.filter(Boolean))].join('|');
}

/** A method (or local function) declaration: name, parameter list and body, as offsets. */
export interface CSharpMethod {
  readonly name: string;
  readonly start: number;
  readonly parameters: { readonly start: number; readonly end: number };
  /** From the `{` or `=>` to the closing `}` or `;` (the declaration's end for an abstract method). */
  readonly body: { readonly start: number; readonly end: number };
}

const SIGNATURE = /(?:(?:public|private|protected|internal|static|virtual|override|async|new|sealed|abstract|partial|extern|unsafe)\s+)*(?:[\w.<>,?[\]() \t]+?\s+)?(\w+)\s*(?:<[^<>()]*>)?\s*\(/y;

/** The end of the body that starts at or after `from` (past the parameter list): a `{…}` block, or an `=> …;` expression. */
function bodyAfter(masked: string, from: number): { start: number; end: number } {
  for (let i = from; i < masked.length; i += 1) {
    const char = masked[i];
    if (char === '{') {
      const close = closingBracket(masked, i);
      return { start: i, end: close < 0 ? masked.length : close };
    }
    if (char === '=' && masked[i + 1] === '>') {
      // An expression body ends at the first `;` outside brackets.
      for (let j = i + 2, depth = 0; j < masked.length; j += 1) {
        const c = masked[j] as string;
        if (OPEN.includes(c)) depth += 1;
        else if (CLOSE.includes(c)) depth -= 1;
        else if (c === ';' && depth === 0) return { start: i, end: j };
      }
      return { start: i, end: masked.length };
    }
    if (char === ';') return { start: i, end: i };
  }
  return { start: from, end: masked.length };
}

/** Offset past the attributes (`[…]`) and whitespace that start at `from`. */
export function skipAttributes(masked: string, from: number): number {
  let at = from;
  for (;;) {
    while (/\s/.test(masked[at] ?? '')) at += 1;
    if (masked[at] !== '[') return at;
    const close = closingBracket(masked, at);
    if (close < 0) return at;
    at = close + 1;
  }
}

/**
 * The method declared right at `from` (attributes before it skipped), when one is.
 * @example methodAt(parseCSharp('[HttpPost] public IActionResult Pay(Req r) => Ok();'), 10)?.name // 'Pay'
 */
export function methodAt(source: Pick<CSharpSource, 'masked'>, from: number): CSharpMethod | undefined {
  const { masked } = source;
  const start = skipAttributes(masked, from);
  SIGNATURE.lastIndex = start;
  const match = SIGNATURE.exec(masked);
  if (!match || /[;{}=]/.test(match[0])) return undefined;
  const open = start + match[0].length - 1;
  const close = closingBracket(masked, open);
  if (close < 0) return undefined;
  return { name: match[1] ?? '', start, parameters: { start: open + 1, end: close }, body: bodyAfter(masked, close + 1) };
}

/**
 * Offset where the attributes and modifiers written before `index` begin (the start of the
 * declaration `index` is in, when `index` is its keyword or one of its attributes).
 */
export function declarationStart(masked: string, index: number): number {
  let at = index;
  for (;;) {
    let i = at - 1;
    while (i >= 0 && /\s/.test(masked[i] ?? '')) i -= 1;
    if (masked[i] === ']') {
      const open = openingBracket(masked, i);
      if (open < 0) return at;
      at = open;
      continue;
    }
    const word = /(?:public|private|protected|internal|static|sealed|abstract|partial|virtual|override|async|readonly)$/.exec(masked.slice(Math.max(0, i - 12), i + 1));
    if (word && !/\w/.test(masked[i - word[0].length] ?? '')) {
      at = i - word[0].length + 1;
      continue;
    }
    return at;
  }
}

/**
 * The literal strings among the arguments of every `[Name(…)]` attribute in `masked[start, end)`
 * (first argument only), read from the original text.
 * @example attributeStrings(src, 'Route', 0, 40) // ['api/[controller]']
 */
export function attributeStrings(source: Pick<CSharpSource, 'text' | 'masked'>, name: string, start: number, end: number): string[] {
  const out: string[] = [];
  const pattern = new RegExp(`[[,]\\s*(?:[\\w.]*\\.)?${name}(?:Attribute)?\\s*\\(\\s*(?:template\\s*:\\s*|name\\s*:\\s*)?@?"`, 'g');
  for (const match of source.masked.slice(start, end).matchAll(pattern)) {
    const quote = start + (match.index ?? 0) + match[0].length - 1;
    out.push(stringAt(source, quote) ?? '');
  }
  return out;
}

/** The value of the plain or verbatim string literal whose quote is at `quote`, or undefined when none is. */
export function stringAt(source: Pick<CSharpSource, 'text' | 'masked'>, quote: number): string | undefined {
  if (source.text[quote] !== '"') return undefined;
  const end = csharpStringEnd(source.text, quote);
  if (source.text[quote - 1] === '$') return undefined;
  return source.text.slice(quote + 1, end - 1);
}
