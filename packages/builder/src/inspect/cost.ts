/**
 * What a duplicate of each entry point costs, from what its handler does — payment calls reached
 * from it (directly or through a service function), writes, messages and outbound calls — never
 * from words in its path; plus entry points that must not be protected (login, sessions, tokens,
 * reads) and idempotency protection already in place.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ASKING_NAME, calleeExternal, calleeWrite, EXTERNAL, jsExternal, jsWrite, LANGUAGE_EFFECTS, PROVIDER_MUTATION, SERVICE_WRITE, typedExternal, typedWrite, WRITE } from './cost-evidence.js';
import { closing, declarationBody, followTypedCalls, typedFamily, type CalleeBody, type FollowedCall } from './cost-callees.js';
import { probeCallees } from './cost-python-callees.js';
import { followScriptCalls, type ScriptCall } from './cost-script-callees.js';
import { followTsCalls, packageOf, TS_FILE, type TsSources } from './cost-ts-callees.js';
import { RELATIVE_ONLY, type ModulePaths } from './module-paths.js';
import { maskComments } from './patterns/code-mask.js';
import type { EndpointFinding, PaymentCallFinding } from './types.js';

export type CostLevel = 'money' | 'external' | 'write' | 'none' | 'auth' | 'read';

export interface DuplicateCost {
  readonly level: CostLevel;
  /** What was seen, each with `path:line` where it has one. */
  readonly evidence: readonly string[];
}

/** Order in which costs are ranked: money first. */
export const COST_RANK: Record<CostLevel, number> = { money: 0, external: 1, write: 2, none: 3, read: 4, auth: 5 };

const AUTH = /(^|[/_-])(log-?in|log-?out|sign-?in|sign-?out|sessions?|tokens?|refresh|access-token|test-token|password-recovery|reset-password|forgot-password|otp|mfa|2fa|verify-email|oauth|callback)([/_-]|$)/i;
const AUTH_HANDLER = /^(login|logout|signin|signout|refresh(Token)?|login_?access_?token|test_?token|recover_?password|reset_?password|usersLogin|UsersLogin)/i;
/**
 * A TS/JS body that signs a user in or out, whatever the entry point is named (a server action
 * `authenticate` calling next-auth's `signIn(...)`, Supabase's `supabase.auth.signInWithPassword(...)`).
 */
const AUTH_CALL = /(?<![.\w$])(?:signIn|signOut)\s*\(|\.auth\s*\.\s*(?:signInWith\w+|signOut|exchangeCodeForSession|verifyOtp)\s*\(/;
// Only the route's last segment names a read (`/shipping/quote`, `/estimates/{id}/preview`): `/quote/{id}/accept`
// and `/estimate/{id}/status` act on a quote or an estimate, and a write seen in the handler wins over the word.
const READ = /(^|\/)(search|query|lookup|preview|estimate|quote|validate|check|graphql-query)\/?$/i;
/** A path parameter segment: `:id`, `{tokenID}`, `[id]`, `<int:pk>`. */
const PARAM_SEGMENT = /^(?::\w+\??|\{[^}]+\}|\[[^\]]+\]|<[^>]+>)$/;
/**
 * Whether a route mints or exchanges a session or token (POST …/token, …/login, …/refresh, …/oauth/callback).
 * PUT, PATCH or DELETE of one stored token or session by its id (`DELETE /api/account/token/{tokenID}`) edits a
 * record like any other resource: a write, not an auth endpoint.
 */
function authRoute(endpoint: EndpointFinding): boolean {
  if (!AUTH.test(endpoint.route)) return false;
  const last = endpoint.route.split('/').filter(Boolean).pop() ?? '';
  return !(endpoint.method !== 'POST' && PARAM_SEGMENT.test(last));
}
// A callee that hands work on to another member (`this.propertyService.put(…)`, `this.putBenchmarksProperty(…)`) may
// write one level further than is read: its name stays the evidence rather than "no write".
const DELEGATES = /\bthis\s*\.\s*[\w$]+\s*(?:\.\s*[\w$]+\s*)?\(/;

const GENERIC_NAMES = /^(create|update|save|execute|handle|run|call|post|put|patch|delete|process|main|index|default)$/;
/** Existing idempotency handling in or around a handler. */
/** The protection note for a route the idempotency-builder runtime already guards. */
export const RUNTIME_PROTECTION = '@idempotency-builder/runtime';
const PROTECTION = /idempoten|Idempotency-Key|X-Idempotency|@Idempotent|dedupe?_?key|processed_?events?/i;

const cache = new Map<string, string[]>();
function fileLines(root: string, relPath: string): string[] {
  const key = join(root, relPath);
  let lines = cache.get(key);
  if (!lines) {
    try {
      lines = readFileSync(key, 'utf8').split('\n');
    } catch {
      lines = [];
    }
    cache.set(key, lines);
  }
  return lines;
}

function fileOf(location: string): string {
  return location.replace(/:\d+$/, '');
}
function lineOf(location: string): number {
  return Number(/:(\d+)$/.exec(location)?.[1] ?? 0);
}

/** The name of the function a line sits in, read upwards (`function x(`, `async x(`, `def x(`, `func x(`). */
function enclosingFunction(lines: readonly string[], line: number): string | undefined {
  for (let i = line - 1; i >= 0 && i >= line - 200; i -= 1) {
    const text = lines[i] ?? '';
    const m = /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(\w+)|^\s*(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>|^\s*(?:public|private|protected|static|async|\s)*(\w+)\s*\([^)]*\)\s*(?::\s*[\w<>[\]|, ]+)?\s*\{\s*$|^\s*(?:async\s+)?def\s+(\w+)\(|^func\s+(?:\([^)]*\)\s*)?(\w+)\(|^\s*(?:public|private|protected)\s+[\w<>[\], ]+\s+(\w+)\s*\(/.exec(text);
    const name = m?.slice(1).find(Boolean) ?? multilineArrow(lines, i);
    if (name && !/^(if|for|while|switch|catch|return|function)$/.test(name)) return name;
  }
  return undefined;
}

/**
 * `const createCheckoutSession = async (` with its parameters on the next lines: the name, once the
 * parameter list closes and `=>` follows (a parenthesised value such as `const x = (\n a || b\n)` is no function).
 * @example multilineArrow(['const f = async (', '  a,', ') => {'], 0) // 'f'
 */
function multilineArrow(lines: readonly string[], index: number): string | undefined {
  const m = /^\s*(?:export\s+)?(?:const|let|var)\s+(\w+)\s*(?::[^=]+)?=\s*(?:async\s*)?\(/.exec(lines[index] ?? '');
  if (!m) return undefined;
  const text = lines.slice(index, index + 40).join('\n');
  const close = closing(text, m[0].length - 1);
  return close >= 0 && /^\s*(?::[^=;{]+)?=>/.test(text.slice(close + 1)) ? m[1] : undefined;
}

/** Words that stand before `(…) {` in a statement, never as a declared name. */
const STATEMENT_WORDS = /^(if|for|while|switch|catch|with|function|return|await|typeof|new|super|do|else|try|yield|delete|void)$/;
// A method or member declaration header at a class or object member position: `async resolve(root, args) {`,
// `public charge(o: Order): Promise<void> {`, `{ pay(input) {` — a call is never followed by `{` in these languages.
const METHOD_HEADER = /(^|\n|[{,;])([ \t]*(?:(?:public|private|protected|internal|static|async|override|readonly|abstract|final|virtual|get|set)\s+)*\*?[ \t]*)([\w$]+)(?=\s*(?:<[^>\n]*>)?\s*\([^()]*\)\s*(?::[^{};=\n]+)?\{)/g;
/** Languages where a call may take a trailing block (`launch(io) { … }`, `each(x) do`): `name(…) {` is a call there. */
const TRAILING_BLOCKS = /\.(kt|kts|scala|groovy|gradle|swift|rb)$/;

/**
 * The handler's text with every declaration's own name taken out, so that only calls are left to
 * match: `function handler(`, a method header (`resolve(root, args) {`), Python `def mutate(`.
 * Every pages-router `handler` and every GraphQL `resolve` method would otherwise "call" the one
 * of that name that makes a payment.
 * @example withoutDeclarations('  async resolve(_, args) {\n    return resolve(args);', 'a.ts') // '  async (_, args) {\n    return resolve(args);'
 */
export function withoutDeclarations(body: string, file: string): string {
  const plain = body.replace(/\bfunction\s*\*?\s*[\w$]+\s*\(/g, 'function (').replace(/\bdef\s+\w+\s*\(/g, 'def (');
  if (TRAILING_BLOCKS.test(file)) return plain;
  return plain.replace(METHOD_HEADER, (header: string, lead: string, modifiers: string, name: string) => (STATEMENT_WORDS.test(name) ? header : `${lead}${modifiers}`));
}

/** A handler's body: its text after its own declaration, the line that text starts on, and the declaration itself. */
interface HandlerBody {
  readonly text: string;
  readonly line: number;
  readonly signature: string;
}

/**
 * The handler's lines without its own declaration, whatever the language: a method's name and parameters
 * (`public Price createQuote(@RequestBody Q q) {`, over several lines too), Go's `func (h *H) Create(c *gin.Context) {`,
 * Python's `def create_item(…) -> Item:`, or the route call carrying a lambda (`app.MapPost("/x", async (…) =>`).
 * The handler's own name is no call it makes: `createQuote(` would otherwise read as a write.
 * @example handlerBody(['public Price createQuote(Q q) { return calc.price(q); }'], 1, 1, 'A.java', 'createQuote').text // ' return calc.price(q); '
 */
export function handlerBody(lines: readonly string[], start: number, end: number, file: string, handler?: string): HandlerBody {
  const family = typedFamily(file);
  const raw = lines.slice(start - 1, end).join('\n');
  // Comments quote code (`// later: repository.save(x)`) in these languages as often as in any other; they do nothing.
  const text = family ? maskComments(raw, file) : raw;
  const at = (index: number): HandlerBody => ({ text: text.slice(index), line: start + text.slice(0, index).split('\n').length - 1, signature: text.slice(0, index) });
  // Every scanner starts a span on the declaration's line: after `def`, `fun`, `function` or Go's `func`, else at the
  // handler's own name (`public Price createQuote(`). Never further down: `return CreateOrder(order=order)` is a call.
  const head = text.split('\n')[0] ?? '';
  const keyword = /\b(?:def|fun|function)\s*\*?\s*[\w$]*\s*\(|\bfunc\s*(?:\([^)]*\)\s*)?\w*\s*\(/.exec(head);
  const declaration = keyword ?? (handler && /^[\w$]+$/.test(handler) ? new RegExp(`(?<![\\w.$])${handler}\\s*(?:<[^<>()]*>)?\\s*\\(`).exec(head) : null);
  if (declaration) {
    const paren = declaration.index + declaration[0].length - 1;
    // C# `=> mediator.Send(command);` and Kotlin `= service.create(x)` bodies end at their expression: a span may run past them.
    const body = family ? declarationBody(text, paren) : undefined;
    if (body) return { ...at(body.from), text: text.slice(body.from, body.to) };
    const close = closing(text, paren);
    if (close >= 0) return at(close + 1);
  }
  // A Python span without a `def` on its first line: that line is the class or field that declares it.
  if (file.endsWith('.py')) return at(Math.min(text.length, (text.indexOf('\n') + 1) || text.length));
  // The first line of a lambda handler often carries the route call itself (`router.delete('/x', async … =>`, Spark's `(req, res) -> {`).
  const first = text.split('\n')[0] ?? '';
  const arrow = Math.max(first.lastIndexOf('=>'), family === 'jvm' ? first.lastIndexOf('->') : -1);
  return at(arrow >= 0 ? arrow + 2 : 0);
}

export interface CostContext {
  readonly root: string;
  readonly paymentCalls: readonly PaymentCallFinding[];
  /** The project's tsconfig `paths` and subpath imports, so a TS/JS handler's `@/lib/x` import is followed like a relative one. */
  readonly modulePaths?: ModulePaths;
}

interface MoneyFunction {
  readonly name: string;
  readonly file: string;
  readonly call: PaymentCallFinding;
  /** The function is its file's default export, so importers may call it by any name. */
  readonly defaultExport: boolean;
}

function moneyFunctions(ctx: CostContext): MoneyFunction[] {
  return ctx.paymentCalls.flatMap((call) => {
    const file = fileOf(call.location);
    const lines = fileLines(ctx.root, file);
    const name = enclosingFunction(lines, lineOf(call.location));
    if (!name) return [];
    const exported = new RegExp(`export\\s+default\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*)?${name}\\b|module\\.exports\\s*=\\s*${name}\\b`);
    return [{ name, file, call, defaultExport: exported.test(lines.join('\n')) }];
  });
}

const SOURCE_EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

/** Default imports of relative modules: local name → the files the specifier may be (`import create from './create'`). */
function defaultImports(file: string, text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of text.matchAll(/\bimport\s+(\w+)\s*(?:,\s*\{[^}]*\})?\s*from\s*['"](\.\.?\/[^'"]+)['"]/g)) {
    const base = posix.normalize(posix.join(posix.dirname(file), m[2] ?? ''));
    out.set(m[1] ?? '', SOURCE_EXTENSIONS.map((ext) => `${base}${ext}`));
  }
  return out;
}

interface FollowedHit {
  readonly call: FollowedCall;
  readonly money?: PaymentCallFinding;
  readonly external?: { readonly body: CalleeBody; readonly match: RegExpExecArray };
  readonly write?: { readonly body: CalleeBody; readonly match: RegExpExecArray };
}

/** How a callee's body is read for a message and for a write, per language family. */
interface CalleeProbes {
  readonly external: (body: CalleeBody) => RegExpExecArray | null;
  readonly write: (body: CalleeBody) => RegExpExecArray | null;
}
const TYPED_PROBES: CalleeProbes = { external: (b) => typedExternal(b.text), write: (b) => typedWrite(b.text, () => false) };
/** A Ruby or PHP model or service method: the shared patterns, then the language's own (`.save!`, `->attach(`, `perform_later`). */
function scriptProbes(file: string): CalleeProbes {
  const own = LANGUAGE_EFFECTS.find((language) => language.file.test(file));
  return {
    external: (b) => EXTERNAL.exec(b.text) ?? PROVIDER_MUTATION.exec(b.text) ?? own?.external.exec(b.text) ?? null,
    // The persistence call itself (`->save(`, `.update_all`, a model's own `update!(`) before a call merely named for a write (`$this->updateLastEditedDate(`).
    write: (b) => own?.write.exec(b.text) ?? (own?.self?.file.test(b.file) ? own.self.write.exec(b.text) : null) ?? WRITE.exec(b.text) ?? SERVICE_WRITE.exec(b.text) ?? null,
  };
}
const SCRIPT_FILE = /\.(?:rb|php)$/;

/** What a followed callee's body does: a payment call inside it, a message or outbound call, a write. */
function probeFollowed(call: FollowedCall, paymentCalls: readonly PaymentCallFinding[], probes: CalleeProbes): FollowedHit {
  const callee = call.callee;
  if (!callee) return { call };
  const bodies = [callee, ...(callee.helpers ?? [])];
  const money = paymentCalls.find((c) => bodies.some((b) => fileOf(c.location) === b.file && lineOf(c.location) >= b.line && lineOf(c.location) <= b.end));
  const first = (probe: (body: CalleeBody) => RegExpExecArray | null): { body: CalleeBody; match: RegExpExecArray } | undefined =>
    bodies.map((body) => ({ body, match: probe(body) })).find((hit): hit is { body: CalleeBody; match: RegExpExecArray } => hit.match !== null);
  return { call, ...(money ? { money } : {}), external: first(probes.external), write: first(probes.write) };
}

/** The first followed callee with that kind of evidence, as the Python callee probe reports it. */
function firstReached(hits: readonly FollowedHit[], kind: 'external' | 'write'): { callee: string; match: RegExpExecArray; location: string; note?: string } | undefined {
  for (const hit of hits) {
    const found = hit[kind];
    if (!found) continue;
    const { body: { file, line, text }, match } = found;
    const note = (hit.call as ScriptCall).note;
    return { callee: hit.call.label, match, location: `${file}:${line + text.slice(0, match.index).split('\n').length - 1}`, ...(note ? { note } : {}) };
  }
  return undefined;
}

/**
 * The duplicate cost of each endpoint, from its handler's own lines.
 * @example assessCosts(endpoints, { root, paymentCalls }).get(endpoints[0]).level // 'money'
 */
export function assessCosts(endpoints: readonly EndpointFinding[], ctx: CostContext): Map<EndpointFinding, DuplicateCost & { protection?: string }> {
  const money = moneyFunctions(ctx);
  const tsSources: TsSources = { root: ctx.root, read: (rel) => fileLines(ctx.root, rel), paths: ctx.modulePaths ?? RELATIVE_ONLY };
  const jsProbes: CalleeProbes = {
    external: (b) => jsExternal(b.text, fileLines(ctx.root, b.file).join('\n')),
    write: (b) => jsWrite(b.text, { cleared: () => false, packageOf: (local) => packageOf(tsSources, b.file, local) }),
  };
  const out = new Map<EndpointFinding, DuplicateCost & { protection?: string }>();
  for (const endpoint of endpoints) {
    // The handler's own file: a controller module when the route imports its handler from one.
    const file = endpoint.span?.file ?? fileOf(endpoint.location);
    const lines = fileLines(ctx.root, file);
    const start = endpoint.span?.start ?? lineOf(endpoint.location);
    const end = endpoint.span?.end ?? start;
    const { text: body, line: bodyStart, signature } = handlerBody(lines, start, end, file, endpoint.handler);
    const fileText = lines.join('\n');
    const evidence: string[] = [];
    const direct = ctx.paymentCalls.filter((c) => fileOf(c.location) === file && lineOf(c.location) >= start && lineOf(c.location) <= end);
    for (const c of direct) evidence.push(`calls ${c.call} (${c.location})`);
    const calls = withoutDeclarations(body, file);
    const imported = defaultImports(file, fileText);
    const calledAs = (name: string): boolean => new RegExp(`(^|[^\\w])${name}\\s*\\(`).test(calls);
    for (const fn of money) {
      if (direct.includes(fn.call)) continue;
      // A default export called under the name its importer gave it (`import paymentIntentsCreate from './create'`).
      const alias = fn.defaultExport ? [...imported].find(([local, files]) => files.includes(fn.file) && calledAs(local))?.[0] : undefined;
      if (!alias && !calledAs(fn.name)) continue;
      const base = fn.file.slice(fn.file.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
      // A generic name (`create`) only counts when the handler's file refers to the module defining it.
      if (!alias && GENERIC_NAMES.test(fn.name) && fn.file !== file && !fileText.includes(base)) continue;
      evidence.push(`reaches ${fn.call.call} (${fn.call.location}) through ${alias ?? fn.name}()`);
    }
    // Java/Kotlin, C#, Go: the repository's own methods the handler delegates to, one level deep (services, MediatR handlers).
    // TS/JS: an injected class service's method (NestJS), a same-file or imported project function; a package is not followed.
    // Ruby, PHP: a model's or service's method the action calls (`current_user.favorite(article)`, `(new CreateVault)->execute($data)`).
    const typed = typedFamily(file) !== undefined;
    const script = SCRIPT_FILE.test(file) && endpoint.span !== undefined;
    const repo = { root: ctx.root, read: (rel: string) => fileLines(ctx.root, rel) };
    const followed = typed
      ? followTypedCalls(repo, file, body, signature)
      : script ? followScriptCalls(repo, file, body, signature) : TS_FILE.test(file) && endpoint.span ? followTsCalls(tsSources, file, start, end) : [];
    const reached = followed.map((call) => probeFollowed(call, ctx.paymentCalls, typed ? TYPED_PROBES : script ? scriptProbes(file) : jsProbes));
    for (const hit of reached) {
      if (hit.money && !evidence.some((e) => e.includes(`(${hit.money?.location})`))) evidence.push(`reaches ${hit.money.call} (${hit.money.location}) through ${hit.call.label}()`);
    }
    // This project's own runtime already on the route: the design describes it rather than skipping the route.
    const ownRuntime = /@idempotency-builder\/runtime/.test(fileText);
    const found = PROTECTION.exec(body)?.[0];
    const protection = found && ownRuntime ? RUNTIME_PROTECTION : found;
    const name = endpoint.handler ?? '';
    let level: CostLevel;
    if (evidence.length > 0) level = 'money';
    // A checkout or payment session is a purchase, not a login session.
    else if (!endpoint.webhook && !/checkout|payment|billing-portal/i.test(endpoint.route) && (authRoute(endpoint) || AUTH_HANDLER.test(name) || (TS_FILE.test(file) && AUTH_CALL.test(body)))) {
      level = 'auth';
      evidence.push('login, logout, session or token endpoint: each call should mint a fresh result, and a stored replay would hand one session or token to another attempt');
    } else {
      // A call named for a write whose own code was read says what it does itself: its write with its own `file:line`,
      // or nothing (`order.addLine(` on an entity that only appends to a list).
      const cleared = (callee: string): boolean => reached.some((hit) => hit.call.name === callee && hit.call.callee && (typed || hit.write || hit.external || hit.money || !DELEGATES.test(hit.call.callee.text)));
      const own = LANGUAGE_EFFECTS.find((language) => language.file.test(file));
      const js = TS_FILE.test(file);
      const external = typed ? typedExternal(body) : js ? jsExternal(body, fileText) : EXTERNAL.exec(body) ?? PROVIDER_MUTATION.exec(body) ?? own?.external.exec(body) ?? null;
      const write = typed
        ? typedWrite(body, cleared)
        : js ? jsWrite(body, { cleared, packageOf: (local) => packageOf(tsSources, file, local) }) : WRITE.exec(body) ?? SERVICE_WRITE.exec(body) ?? own?.write.exec(body) ?? null;
      // A Python view that only validates and calls a service: what the service it calls does (one call deep).
      const read = (rel: string): readonly string[] => fileLines(ctx.root, rel);
      const python = file.endsWith('.py') && !external && !write;
      const reachedExternal = python ? probeCallees(file, fileText, body, { probe: calleeExternal, read, skip: ASKING_NAME }) : firstReached(reached, 'external');
      const reachedWrite = python && !reachedExternal ? probeCallees(file, fileText, body, { probe: calleeWrite, read, skip: ASKING_NAME }) : firstReached(reached, 'write');
      const assumed = followed.find((call) => call.assumption);
      const lineIn = (index: number): number => bodyStart + body.slice(0, index).split('\n').length - 1;
      // Ranked by what a duplicate costs: a message or outbound call through a service outranks a write in the handler.
      // A route named for a read (`/shipping/quote`) is one unless the handler is seen to write or send.
      if (READ.test(endpoint.route) && !external && !reachedExternal && !write && !reachedWrite) {
        level = 'read';
        evidence.push('reads or computes without a write: a duplicate costs nothing');
      } else if (external) {
        level = 'external';
        evidence.push(`sends or calls out: \`${external[0].trim()}\` (${file}:${lineIn(external.index)})`);
      } else if (reachedExternal) {
        level = 'external';
        evidence.push(`sends or calls out through ${reachedExternal.callee}()${'note' in reachedExternal && reachedExternal.note ? ` (${reachedExternal.note})` : ''}: \`${reachedExternal.match[0].trim()}\` (${reachedExternal.location})`);
      } else if (write && !(script && reachedWrite && /^new\b/.test(write[0]))) {
        level = 'write';
        evidence.push(`writes: \`${write[0].trim()}\` (${file}:${lineIn(write.index)})`);
      } else if (reachedWrite) {
        // Also for `(new CreateVault)->execute(…)`, named for a write: the write inside the action class is the evidence.
        level = 'write';
        evidence.push(`writes through ${reachedWrite.callee}()${'note' in reachedWrite && reachedWrite.note ? ` (${reachedWrite.note})` : ''}: \`${reachedWrite.match[0].trim()}\` (${reachedWrite.location})`);
      } else if (assumed) {
        level = 'write';
        evidence.push(`${assumed.assumption ?? ''} (${file}:${lineIn(assumed.at)})`);
      } else {
        level = endpoint.span ? 'none' : 'write';
        evidence.push(endpoint.span ? 'no write, message or provider call seen in the handler' : 'the handler is defined elsewhere; assumed to write');
      }
    }
    out.set(endpoint, { level, evidence, ...(protection ? { protection: `${protection} (${file}:${start})` } : {}) });
  }
  return out;
}
