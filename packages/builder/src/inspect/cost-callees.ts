/**
 * What a Java/Kotlin, C# or Go handler does through code of its own repository, one call deep: the
 * method of an injected service (`orderService.order(order)`, `h.svc.CreateOrder(...)`,
 * `_service.PlaceAsync(...)`), a package function (`SaveOne(&m)`), or the MediatR handler a command
 * is sent to (`mediator.Send(new Create.Command(...))`). Controllers of these languages only bind,
 * validate and delegate; the write sits one class further. A call on an injected service whose code
 * is not in the repository is reported as an assumption, never as "no write".
 */
import { posix } from 'node:path';
import type { ReadLines } from './cost-python-callees.js';
import { maskComments } from './patterns/code-mask.js';
import { isCloser, scanTopLevel } from './text-scan.js';
import { walkSourceFiles } from './walk.js';

export type TypedFamily = 'jvm' | 'dotnet' | 'go';

/** The statically typed language family of a file, or undefined (JS, Python, Ruby, PHP). */
export function typedFamily(file: string): TypedFamily | undefined {
  if (/\.(java|kt|kts|scala|groovy)$/.test(file)) return 'jvm';
  if (file.endsWith('.cs')) return 'dotnet';
  if (file.endsWith('.go')) return 'go';
  return undefined;
}

const FAMILY_FILES: Record<TypedFamily, RegExp> = { jvm: /\.(java|kt|kts|scala|groovy)$/, dotnet: /\.cs$/, go: /(?<!_test)\.go$/ };

/** A callee's body found in the repository. */
export interface CalleeBody {
  readonly file: string;
  /** 1-based line of `text`'s first character. */
  readonly line: number;
  /** 1-based last line of the body. */
  readonly end: number;
  readonly text: string;
  /** The callee's own private helpers it calls (`fireOrderCreatedEvent(order)`): part of what the callee does. */
  readonly helpers?: readonly CalleeBody[];
}

export interface FollowedCall {
  /** The method or function name as called (`order`, `SaveOne`). */
  readonly name: string;
  /** Index of the call in the handler body. */
  readonly at: number;
  /** How the evidence names it: `orderService.order`, `Create.Command handler Handle`. */
  readonly label: string;
  readonly callee?: CalleeBody;
  /** Set when the callee's code is not in the repository but the call is on an injected service. */
  readonly assumption?: string;
}

export interface RepoSources {
  readonly root: string;
  readonly read: ReadLines;
}

/** Calls followed per handler: a controller action delegates to a handful of services, not more. */
const MAX_CALLS = 24;
/** Files whose text is searched for a type per lookup: keeps a monorepo's worst case bounded. */
const MAX_FILES = 20000;

// Names that ask, read or convert (`findBySlug`, `GetTokenAsync`, `toResponse`): not followed, never assumed to write.
const READING_WORDS = ['get(?!Or)', 'find', 'fetch', 'list', 'load', 'read', 'query', 'search', 'count', 'exists?', 'is', 'has', 'can', 'should', 'check', 'validate', 'verify', 'to', 'as', 'map', 'build', 'format', 'render', 'compute', 'calc', 'calculate', 'price', 'quote', 'preview', 'estimate', 'log', 'trace', 'debug', 'info', 'warn', 'error', 'equals', 'hash', 'compare', 'parse', 'serialize', 'select', 'lookup', 'view', 'show', 'print', 'convert', 'encode', 'decode', 'matches', 'contains', 'bind', 'should'];
export const READING_NAME = new RegExp(`^(?:${READING_WORDS.map((w) => `[${w[0]}${(w[0] ?? '').toUpperCase()}]${w.slice(1)}`).join('|')})(?:[A-Z_\\d]|$)`);
// An injected collaborator that does work for the handler, not a logger, mapper or configuration.
const SERVICE_TYPE = /(Service|Manager|Handler|Repository|Repo|Store|Dao|Gateway|Client|Facade|UseCase|Interactor|Command\w*|Processor|Publisher|Producer|Sender|Bus|Api)$/i;
const NOT_SERVICE_TYPE = /Logger|Mapper|Validator|Options|Config|Configuration|Environment|Factory|Accessor|Localizer|Cache/i;
const KEYWORDS = /^(if|for|foreach|while|switch|catch|return|new|throw|await|typeof|nameof|sizeof|default|using|lock|fixed|checked|unchecked|super|this|base|func|fun|go|defer|make|len|cap|append|panic|recover|delete|copy|close|print|println|when|is|as|in|var|val|let|yield|select|range|synchronized|assert)$/;

/** Index of the bracket closing the one opened at `open` (strings skipped), or -1. */
export function closing(text: string, open: number): number {
  const at = scanTopLevel(text, open + 1, (char) => isCloser(char));
  return at < text.length ? at : -1;
}

/**
 * Where a declaration's body is, from the `(` of its parameter list: a `{ … }` block, or an
 * expression body (`=> expr;` in C#, `= expr` in Kotlin) up to its end. Undefined for a
 * declaration without a body (an interface or abstract method) or a call.
 * @example declarationBody('int f(int a) { return a; }', 5) // { from: 14, to: 24 }
 */
export function declarationBody(text: string, paren: number): { from: number; to: number } | undefined {
  const close = closing(text, paren);
  if (close < 0) return undefined;
  // Between the parameters and the body: a return type (`: T`, Go's `(T, error)`), `throws X`, `where T : new()`.
  let depth = 0;
  for (let i = close + 1; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (char === '(' || char === '<') depth += 1;
    else if (char === ')' || (char === '>' && text[i - 1] !== '=' && text[i - 1] !== '-')) depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (char === '{') {
      const end = closing(text, i);
      return { from: i + 1, to: end < 0 ? text.length : end };
    } else if (char === ';' || char === '.' || char === ',' || char === ')') return undefined;
    else if (char === '=' && text[i + 1] !== '=') {
      // `=> expr;` or `= expr`: to the `;`, or (no semicolons) to the line before the next declaration.
      const from = i + (text[i + 1] === '>' ? 2 : 1);
      const to = scanTopLevel(text, from, (c, at) => c === ';' || (c === '\n' && /^\n[ \t]*(?:$|\n|[@[}]|(?:public|private|protected|internal|override|fun|func|def)\b)/.test(text.slice(at, at + 40))));
      return { from, to };
    }
  }
  return undefined;
}

const textCache = new Map<string, string>();
/** A file's text with comments blanked, cached per root. */
function sourceText(sources: RepoSources, file: string): string {
  const key = `${sources.root}\0${file}`;
  let text = textCache.get(key);
  if (text === undefined) {
    text = maskComments(sources.read(file).join('\n'), file);
    textCache.set(key, text);
  }
  return text;
}

const filesCache = new Map<string, readonly string[]>();
function familyFiles(sources: RepoSources, family: TypedFamily): readonly string[] {
  const key = `${sources.root}\0${family}`;
  let files = filesCache.get(key);
  if (!files) {
    files = walkSourceFiles(sources.root).files.map((f) => f.relPath).filter((f) => FAMILY_FILES[family].test(f)).slice(0, MAX_FILES);
    filesCache.set(key, files);
  }
  return files;
}

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

function bodyAt(sources: RepoSources, file: string, paren: number): CalleeBody | undefined {
  const text = sourceText(sources, file);
  const range = declarationBody(text, paren);
  return range ? { file, line: lineAt(text, range.from), end: lineAt(text, range.to), text: text.slice(range.from, range.to) } : undefined;
}

/** The `(` of a method declaration `name(` in `text[from, to)` (Java, Kotlin, C#), not of a call. */
function methodParen(text: string, name: string, from: number, to: number): number | undefined {
  const pattern = new RegExp(`(?<![\\w.$])${name}\\s*(?:<[^<>()]*>)?\\s*\\(`, 'g');
  pattern.lastIndex = from;
  for (let m = pattern.exec(text); m && m.index < to; m = pattern.exec(text)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const before = text.slice(lineStart, m.index);
    // Modifiers and a return type before the name (`public Order `, `fun `), never `return x = `.
    const declared = /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:[\w<>[\],?.*]+\s+)+$/.test(before) || /\bfun\s+(?:<[^>]*>\s*)?(?:\w+\.)?$/.test(before);
    if (!declared || /\b(return|new|await|throw|else|case|yield|var|val|let)\b|=/.test(before)) continue;
    const paren = m.index + m[0].length - 1;
    if (declarationBody(text, paren)) return paren;
  }
  return undefined;
}

/** Files declaring a class, interface, object, record or struct of that name, its own file first. */
const typeCache = new Map<string, { file: string; index: number; keyword: string }[]>();
function typeDeclarations(sources: RepoSources, family: TypedFamily, type: string): { file: string; index: number; keyword: string }[] {
  const key = `${sources.root}\0${family}\0${type}`;
  const cached = typeCache.get(key);
  if (cached) return cached;
  const pattern = new RegExp(`\\b(class|interface|object|record|struct)\\s+${type}\\b`);
  const found = familyFiles(sources, family).flatMap((file) => {
    const m = pattern.exec(sourceText(sources, file));
    return m ? [{ file, index: m.index, keyword: m[1] ?? '' }] : [];
  }).sort((a, b) => Number(posix.basename(b.file).startsWith(`${type}.`)) - Number(posix.basename(a.file).startsWith(`${type}.`)));
  typeCache.set(key, found);
  return found;
}

/** Classes implementing or extending an interface: `class OrderServiceImpl implements OrderService`, `class S : IOrderService`. */
function implementations(sources: RepoSources, family: TypedFamily, type: string): { file: string; index: number }[] {
  const pattern = new RegExp(`\\bclass\\s+\\w+[^{;]*?(?:\\bimplements\\b|\\bextends\\b|:)[^{;]*?\\b${type}\\b`, 'g');
  return familyFiles(sources, family).flatMap((file) => [...sourceText(sources, file).matchAll(pattern)].map((m) => ({ file, index: m.index ?? 0 })));
}

/** A method of a class (its declaration at `index`), searched inside the class's braces. */
function methodOfClass(sources: RepoSources, decl: { file: string; index: number }, name: string): CalleeBody | undefined {
  const text = sourceText(sources, decl.file);
  const open = text.indexOf('{', decl.index);
  if (open < 0) return undefined;
  const end = closing(text, open);
  const paren = methodParen(text, name, open, end < 0 ? text.length : end);
  return paren === undefined ? undefined : bodyAt(sources, decl.file, paren);
}

/** The callee with the methods of its own file it calls without a receiver (`this.`), which are part of its work. */
function withHelpers(sources: RepoSources, callee: CalleeBody): CalleeBody {
  const text = sourceText(sources, callee.file);
  const helpers = callsIn(callee.text).filter((call) => !call.owner).flatMap((call) => {
    const paren = methodParen(text, call.name, 0, text.length);
    const helper = paren === undefined ? undefined : bodyAt(sources, callee.file, paren);
    return helper && helper.line !== callee.line ? [helper] : [];
  });
  return helpers.length > 0 ? { ...callee, helpers } : callee;
}

/** The declared type of a field, parameter or local in a Java/Kotlin/C# file: `OrderService orderService`, `svc: OrderService`, `var x = new T(`. */
function declaredType(text: string, name: string): string | undefined {
  const typed = new RegExp(`\\b([A-Z][\\w.]*)(?:<[^;{}()=]*?>)?\\??\\s+${name}\\s*[;=,)]`).exec(text)?.[1];
  const kotlin = new RegExp(`\\b${name}\\s*:\\s*([A-Z][\\w.]*)`).exec(text)?.[1];
  const built = new RegExp(`\\b${name}\\s*=\\s*(?:new\\s+)?([A-Z][\\w.]*)\\s*[({]`).exec(text)?.[1];
  return typed ?? kotlin ?? built;
}

/** `Create.Command` → a `Handle` method of the class implementing `IRequestHandler<Create.Command, …>`, nearest the caller first. */
function mediatorHandler(sources: RepoSources, file: string, command: string): CalleeBody | undefined {
  const parts = command.split('.');
  const inner = parts.pop() ?? command;
  const outer = parts.pop();
  const handlerOf = new RegExp(`IRequestHandler<\\s*(?:[\\w.]*\\.)?${inner}\\s*[,>]`);
  const candidates = familyFiles(sources, 'dotnet').filter((f) => {
    const text = sourceText(sources, f);
    return handlerOf.test(text) && (!outer || new RegExp(`\\bclass\\s+${outer}\\b`).test(text));
  });
  // Features often share command names (`Articles/Create.cs`, `Users/Create.cs`): the one nearest the controller.
  const shared = (f: string): number => {
    const a = posix.dirname(file).split('/');
    const b = posix.dirname(f).split('/');
    let n = 0;
    while (n < a.length && a[n] === b[n]) n += 1;
    return n;
  };
  for (const candidate of candidates.sort((a, b) => shared(b) - shared(a))) {
    const text = sourceText(sources, candidate);
    const at = handlerOf.exec(text)?.index ?? 0;
    const paren = methodParen(text, 'Handle', at, text.length);
    if (paren !== undefined) return bodyAt(sources, candidate, paren);
  }
  return undefined;
}

interface Call {
  readonly owner?: string;
  readonly name: string;
  readonly at: number;
  /** Index just after the call's `(` in the body. */
  readonly args: number;
}

function callsIn(body: string): Call[] {
  const calls: Call[] = [];
  for (const m of body.matchAll(/(?<![\w.$])(?:((?:\w+\s*\.\s*)*\w+)\s*\.\s*)?(\w+)\s*(?:<[^<>()]*>)?\s*\(/g)) {
    const name = m[2] ?? '';
    const owner = m[1]?.replace(/\s+/g, '').replace(/^this\./, '');
    if (KEYWORDS.test(name) || /\bnew\s+(?:[\w.]+\.)?$/.test(body.slice(Math.max(0, (m.index ?? 0) - 40), m.index))) continue;
    if (READING_NAME.test(name)) continue;
    if (calls.some((c) => c.owner === owner && c.name === name)) continue;
    calls.push({ ...(owner ? { owner } : {}), name, at: m.index ?? 0, args: (m.index ?? 0) + m[0].length });
    if (calls.length >= MAX_CALLS) break;
  }
  return calls;
}

/** The command a MediatR `Send(` carries: `new Edit.Command(...)`, or a variable whose declared type is the command. */
function sentCommand(body: string, handlerText: string, args: number): string | undefined {
  const arg = body.slice(args, args + 200);
  const built = /^\s*new\s+([\w.]+)\s*[({]/.exec(arg)?.[1];
  if (built) return built;
  const variable = /^\s*(\w+)/.exec(arg)?.[1];
  return variable ? declaredType(handlerText, variable) : undefined;
}

function followJvmOrDotnet(sources: RepoSources, family: TypedFamily, file: string, body: string): FollowedCall[] {
  const text = sourceText(sources, file);
  const out: FollowedCall[] = [];
  for (const call of callsIn(body)) {
    if (call.owner?.includes('.')) continue;
    const type = call.owner ? (/^[A-Z]/.test(call.owner) ? call.owner : declaredType(text, call.owner)) : undefined;
    if (family === 'dotnet' && call.name === 'Send' && call.owner && /mediator|sender/i.test(`${call.owner} ${type ?? ''}`)) {
      // MediatR: the command's handler does the work.
      const command = sentCommand(body, text, call.args);
      const callee = command ? mediatorHandler(sources, file, command) : undefined;
      const label = `${command ?? 'the command'} handler Handle`;
      out.push(callee ? { name: call.name, at: call.at, label, callee } : { name: call.name, at: call.at, label, assumption: `sends ${command ?? 'a command'} through ${call.owner}.Send(), whose handler was not found in the repository; assumed to write` });
      continue;
    }
    if (!call.owner) {
      // A helper of the handler's own class.
      const paren = methodParen(text, call.name, 0, text.length);
      const callee = paren === undefined ? undefined : bodyAt(sources, file, paren);
      if (callee && !(callee.file === file && body.includes(callee.text))) out.push({ name: call.name, at: call.at, label: call.name, callee });
      continue;
    }
    if (!type) continue;
    const simple = type.slice(type.lastIndexOf('.') + 1);
    const label = `${call.owner}.${call.name}`;
    let callee: CalleeBody | undefined;
    for (const decl of typeDeclarations(sources, family, simple)) {
      callee = methodOfClass(sources, decl, call.name);
      if (callee) break;
      // An interface (or an abstract base): the method of a class implementing it.
      for (const impl of implementations(sources, family, simple)) {
        callee = methodOfClass(sources, impl, call.name);
        if (callee) break;
      }
      if (callee) break;
    }
    if (callee) out.push({ name: call.name, at: call.at, label, callee: withHelpers(sources, callee) });
    else if (SERVICE_TYPE.test(simple) && !NOT_SERVICE_TYPE.test(simple)) {
      out.push({ name: call.name, at: call.at, label, assumption: `calls ${label}() on an injected ${simple} whose code is not in the repository; assumed to write` });
    }
  }
  return out;
}

/** Go: `func (x *T) Name(` or `func Name(` declarations across the repository, with their receiver type. */
function goDeclarations(sources: RepoSources, name: string, method: boolean): { file: string; paren: number; receiver?: string }[] {
  const pattern = method ? new RegExp(`^func\\s*\\(\\s*\\w*\\s+\\*?(\\w+)(?:\\[[^\\]]*\\])?\\s*\\)\\s*${name}\\s*(?:\\[[^\\]]*\\])?\\(`, 'gm') : new RegExp(`^func\\s+${name}\\s*(?:\\[[^\\]]*\\])?\\(`, 'gm');
  return familyFiles(sources, 'go').flatMap((file) => [...sourceText(sources, file).matchAll(pattern)].map((m) => ({ file, paren: (m.index ?? 0) + m[0].length - 1, ...(m[1] ? { receiver: m[1] } : {}) })));
}

/** The type of a Go struct field or variable named `name`, from the handler's package. */
function goFieldType(texts: readonly string[], name: string): string | undefined {
  for (const text of texts) {
    const t = new RegExp(`^\\s*${name}\\s+\\*?(?:\\w+\\.)?(\\w+)\\s*(?:\`.*)?$`, 'm').exec(text)?.[1] ?? new RegExp(`\\b${name}\\s*:?=\\s*&?(?:\\w+\\.)?([A-Z]\\w*)\\s*\\{`).exec(text)?.[1];
    if (t) return t;
  }
  return undefined;
}

function followGo(sources: RepoSources, file: string, body: string, receiver: string | undefined): FollowedCall[] {
  const dir = posix.dirname(file);
  const packageTexts = familyFiles(sources, 'go').filter((f) => posix.dirname(f) === dir).map((f) => sourceText(sources, f));
  const imports = new Map<string, string>();
  for (const m of sourceText(sources, file).matchAll(/^\s*(?:import\s+)?(?:(\w+)\s+)?"([^"]+)"/gm)) imports.set(m[1] ?? posix.basename(m[2] ?? ''), m[2] ?? '');
  const out: FollowedCall[] = [];
  for (const call of callsIn(body)) {
    const segments = call.owner?.split('.') ?? [];
    const pkgCall = segments.length === 1 && imports.has(segments[0] ?? '');
    const label = call.owner ? `${call.owner}.${call.name}` : call.name;
    let candidates: { file: string; paren: number; receiver?: string }[];
    if (!call.owner) candidates = goDeclarations(sources, call.name, false).filter((c) => posix.dirname(c.file) === dir);
    else if (pkgCall) {
      const path = imports.get(segments[0] ?? '') ?? '';
      candidates = goDeclarations(sources, call.name, false).filter((c) => path.endsWith(`/${posix.dirname(c.file)}`) || path.endsWith(posix.dirname(c.file)) || posix.basename(posix.dirname(c.file)) === segments[0]);
    } else {
      // A method: the receiver type of the field or variable when it can be read, else the nearest name.
      const last = segments[segments.length - 1] ?? '';
      const type = goFieldType(packageTexts, last);
      const score = (c: { file: string; receiver?: string }): number => {
        const r = (c.receiver ?? '').toLowerCase();
        const t = (type ?? '').toLowerCase();
        return (t && r === t ? 8 : 0) + (t && (r.includes(t) || t.includes(r)) ? 4 : 0) + (r && last.toLowerCase().includes(r.replace(/model$/, '')) ? 2 : 0) + (posix.dirname(c.file) === dir ? 1 : 0) - (/mock|fake|stub/i.test(`${c.file} ${c.receiver ?? ''}`) ? 16 : 0);
      };
      candidates = goDeclarations(sources, call.name, true).sort((a, b) => score(b) - score(a));
    }
    const first = candidates[0];
    const callee = first ? bodyAt(sources, first.file, first.paren) : undefined;
    if (callee) out.push({ name: call.name, at: call.at, label, callee });
    else if (receiver && segments.length >= 2 && segments[0] === receiver) {
      // `h.svc.CreateOrder(…)`: a dependency injected into the handler's struct.
      out.push({ name: call.name, at: call.at, label, assumption: `calls ${label}() on a dependency of the handler whose code is not in the repository; assumed to write` });
    }
  }
  return out;
}

/**
 * The calls of a Java/Kotlin, C# or Go handler body that lead into the repository's own code, one
 * level deep, each with the callee's body; calls on injected services whose code is absent carry an
 * assumption instead.
 * @example followTypedCalls(sources, 'OrderController.java', '    order = orderService.order(order);', 'public ModelAndView post(Order order) {')
 * // [{ name: 'order', label: 'orderService.order', callee: { file: 'OrderService.java', line: 21, … } }]
 */
export function followTypedCalls(sources: RepoSources, file: string, body: string, signature: string): FollowedCall[] {
  const family = typedFamily(file);
  if (!family) return [];
  const clean = maskComments(body, file);
  // Go: `func (h *Handler) Create(` names the receiver whose fields are the injected dependencies.
  if (family === 'go') return followGo(sources, file, clean, /^\s*func\s*\(\s*(\w+)\s/.exec(signature)?.[1]);
  return followJvmOrDotnet(sources, family, file, clean);
}
