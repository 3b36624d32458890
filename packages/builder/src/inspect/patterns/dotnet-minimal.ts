/**
 * ASP.NET Core minimal APIs: `app.MapPost("/x", handler)` with the prefixes of the route groups it
 * hangs on — `var group = app.MapGroup("/todos")`, nested `group.MapGroup("/{id}")`, chains such as
 * `app.MapGroup("/a").WithTags("A").MapPost(…)`, groups built inside an extension method — and a
 * handler that is a lambda (explicit return type, attributes, `{` on the next line) or a method of the file.
 */
import { formatLocation, lineAtOffset } from '../location.js';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { bodyTypeOf } from './dotnet-body.js';
import { isWebhook } from './dotnet-controllers.js';
import { closingBracket, enclosingType, methodAt, openingBracket, parameters, splitTopLevel, stringAt, type CSharpParameter, type CSharpSource } from './dotnet-syntax.js';

const VERB: Record<string, MutatingMethod> = { Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };

/** A variable holding a route group: `var group = routes.MapGroup("/todos")…;`. */
interface GroupVariable {
  readonly name: string;
  /** Offsets of the statement. */
  readonly start: number;
  readonly end: number;
}

/** A member-access chain read backwards: its root variable (when it has one) and its calls, left to right. */
interface Chain {
  readonly root?: { readonly name: string; readonly index: number };
  readonly calls: ReadonlyArray<{ readonly name: string; readonly argsStart: number; readonly argsEnd: number }>;
}

const isSpace = (char: string | undefined): boolean => char !== undefined && /\s/.test(char);

/** The chain ending just before `end` (the `.` of the next member, or a statement's `;`). */
function chainBefore(masked: string, end: number): Chain {
  const calls: Array<Chain['calls'][number]> = [];
  let i = end - 1;
  for (;;) {
    while (isSpace(masked[i])) i -= 1;
    let argsStart = -1;
    let argsEnd = -1;
    if (masked[i] === ')') {
      const open = openingBracket(masked, i);
      if (open < 0) return { calls };
      argsStart = open + 1;
      argsEnd = i;
      i = open - 1;
      while (isSpace(masked[i])) i -= 1;
      // A generic call `MapGroup<T>(…)`: its type arguments are not part of the name.
      if (masked[i] === '>') i = masked.lastIndexOf('<', i) - 1;
    }
    let nameStart = i;
    while (nameStart >= 0 && /\w/.test(masked[nameStart] ?? '')) nameStart -= 1;
    const name = masked.slice(nameStart + 1, i + 1);
    if (!name) return { calls };
    let before = nameStart;
    while (isSpace(masked[before])) before -= 1;
    if (argsStart >= 0) calls.unshift({ name, argsStart, argsEnd });
    if (masked[before] !== '.') return argsStart >= 0 ? { calls } : { root: { name, index: nameStart + 1 }, calls };
    if (argsStart < 0) calls.unshift({ name, argsStart: -1, argsEnd: -1 });
    i = before - 1;
  }
}

/** Offset where the statement holding `index` starts (after the `;`, `{` or `}` before it, brackets skipped). */
function statementStart(masked: string, index: number): number {
  for (let i = index - 1; i >= 0; i -= 1) {
    const char = masked[i];
    if (char === ')' || char === ']') i = Math.min(i, openingBracket(masked, i));
    else if (char === ';' || char === '{' || char === '}' || char === '(' || char === '[') return i + 1;
    if (i < 0) break;
  }
  return 0;
}

/** Offset of the `;` ending the statement that starts at `start`, brackets skipped. */
function statementEnd(masked: string, start: number): number {
  for (let i = start; i < masked.length; i += 1) {
    const char = masked[i];
    if (char === '(' || char === '[' || char === '{') i = Math.max(i, closingBracket(masked, i));
    else if (char === ';') return i;
    if (i < 0) break;
  }
  return masked.length;
}

/** Every `x = ….MapGroup(…)…;` assignment of the file. */
function groupVariables(masked: string): GroupVariable[] {
  const out: GroupVariable[] = [];
  for (const match of masked.matchAll(/\bMapGroup\s*\(/g)) {
    const start = statementStart(masked, match.index ?? 0);
    const assigned = /^\s*(?:[\w.<>?]+\s+)?(\w+)\s*=(?![=>])/.exec(masked.slice(start, match.index));
    if (!assigned) continue;
    const end = statementEnd(masked, start);
    if (!out.some((g) => g.start === start)) out.push({ name: assigned[1] ?? '', start, end });
  }
  return out;
}

/**
 * The member (method, property, local block of top-level statements) `index` is in, as the offset
 * of its body's `{`; -1 outside any type (top-level statements share one scope).
 */
function memberAt(source: CSharpSource, index: number): number {
  const type = enclosingType(source, index);
  if (!type?.body) return -1;
  for (let i = type.body.open + 1; i < type.body.close; i += 1) {
    if (source.masked[i] !== '{') continue;
    const close = closingBracket(source.masked, i);
    if (close < 0) break;
    if (i < index && index < close) return i;
    i = close;
  }
  return type.body.open;
}

function joinGroupRoute(...parts: readonly string[]): string {
  return `/${parts.map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

/** The first argument of a call when it is a string literal (`@"…"` too). */
function literalArgument(source: CSharpSource, argsStart: number, argsEnd: number): string | undefined {
  const first = splitTopLevel(source.masked, argsStart, argsEnd, false)[0];
  if (!first) return undefined;
  let quote = first.start;
  while (isSpace(source.masked[quote])) quote += 1;
  if (source.masked[quote] === '@') quote += 1;
  return stringAt(source, quote);
}

/** The group prefix a chain stands for: its root variable's, then each `MapGroup(…)` of the chain in order. */
function chainPrefix(source: CSharpSource, groups: readonly GroupVariable[], chain: Chain, depth: number): string {
  const rootPrefix = chain.root && depth < 8 ? variablePrefix(source, groups, chain.root.name, chain.root.index, depth + 1) : '';
  const own = chain.calls.filter((c) => c.name === 'MapGroup').map((c) => literalArgument(source, c.argsStart, c.argsEnd) ?? '');
  return joinGroupRoute(rootPrefix, ...own);
}

/** The prefix of the group variable `name` as last assigned before `index` in the same member; '' when it is no group. */
function variablePrefix(source: CSharpSource, groups: readonly GroupVariable[], name: string, index: number, depth: number): string {
  const member = memberAt(source, index);
  const assigned = groups.filter((g) => g.name === name && g.end < index && memberAt(source, g.start) === member).pop();
  return assigned ? chainPrefix(source, groups, chainBefore(source.masked, assigned.end), depth) : '';
}

interface Handler {
  readonly name?: string;
  readonly params: readonly CSharpParameter[];
  /** Offsets of the handler: the lambda, or the method the route names. */
  readonly start: number;
  readonly end: number;
}

/** The handler argument: a lambda (its parameter list is the group before `=>`) or a method group of this file. */
function handlerOf(source: CSharpSource, start: number, end: number): Handler | undefined {
  const { masked } = source;
  let arrow = -1;
  for (let i = start, depth = 0; i < end - 1; i += 1) {
    const char = masked[i] as string;
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (depth === 0 && char === '=' && masked[i + 1] === '>') {
      arrow = i;
      break;
    }
  }
  if (arrow >= 0) {
    let close = arrow - 1;
    while (isSpace(masked[close])) close -= 1;
    const open = masked[close] === ')' ? openingBracket(masked, close) : -1;
    const params = open >= 0 ? parameters(source, open + 1, close) : [];
    let bodyStart = arrow + 2;
    while (isSpace(masked[bodyStart])) bodyStart += 1;
    let bodyEnd = masked[bodyStart] === '{' ? closingBracket(masked, bodyStart) : end - 1;
    while (bodyEnd > bodyStart && isSpace(masked[bodyEnd])) bodyEnd -= 1;
    return { params, start, end: bodyEnd };
  }
  const name = /(\w+)\s*$/.exec(masked.slice(start, end))?.[1];
  if (!name) return undefined;
  for (const match of masked.matchAll(new RegExp(`\\b${name}\\s*(?:<[^<>()]*>)?\\s*\\(`, 'g'))) {
    const lineStart = masked.lastIndexOf('\n', match.index ?? 0) + 1;
    const method = methodAt(source, lineStart);
    // A declaration, not a call: it has a body.
    if (method?.name === name && method.body.end > method.body.start) {
      return { name, params: parameters(source, method.parameters.start, method.parameters.end), start: method.start, end: method.body.end };
    }
  }
  return { name, params: [], start: -1, end: -1 };
}

/**
 * Every mutating minimal-API route of a file with its full path.
 * @example minimalApiEndpoints(parseCSharp('var g = app.MapGroup("/todos");\ng.MapPost("/", (TodoItem t) => Results.Ok());'), 'P.cs')[0].route // '/todos'
 */
export function minimalApiEndpoints(source: CSharpSource, relPath: string): EndpointFinding[] {
  const { masked } = source;
  const groups = groupVariables(masked);
  const out: EndpointFinding[] = [];
  for (const match of masked.matchAll(/\.\s*Map(Post|Put|Patch|Delete)\s*\(/g)) {
    const dot = match.index ?? 0;
    const open = dot + match[0].length - 1;
    const close = closingBracket(masked, open);
    if (close < 0) continue;
    const args = splitTopLevel(masked, open + 1, close, false);
    const path = literalArgument(source, open + 1, close);
    if (path === undefined || !args[0]) continue;
    const prefix = chainPrefix(source, groups, chainBefore(masked, dot), 0);
    // Without a group the path stays as written (a missing leading slash is added later, for every framework alike).
    const route = prefix === '/' ? path : joinGroupRoute(prefix, path);
    const line = lineAtOffset(source.text, dot);
    const handler = args[1] ? handlerOf(source, args[1].start, args[1].end) : undefined;
    const located = handler && handler.start >= 0;
    const verb = VERB[match[1] ?? ''] as MutatingMethod;
    // Minimal APIs infer no body for DELETE (RequestDelegateFactory): a complex parameter there is a service.
    const bodyType = handler ? bodyTypeOf(source, handler.params, route, dot, verb !== 'DELETE') : undefined;
    const spanStart = located && handler.name ? lineAtOffset(source.text, handler.start) : line;
    out.push({
      method: verb,
      route,
      framework: 'aspnet',
      location: formatLocation(relPath, line),
      ...(handler?.name ? { handler: handler.name } : {}),
      bodyFields: [],
      ...(bodyType ? { bodyType } : {}),
      webhook: isWebhook(route, located ? source.text.slice(handler.start, handler.end + 1) : ''),
      ...(located ? { span: { start: spanStart, end: lineAtOffset(source.text, handler.end) } } : {}),
    });
  }
  return out;
}
