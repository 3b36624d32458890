/**
 * What a duplicate of each entry point costs, from what its handler does — payment calls reached
 * from it (directly or through a service function), writes, messages and outbound calls — never
 * from words in its path; plus entry points that must not be protected (login, sessions, tokens,
 * reads) and idempotency protection already in place.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { probeCallees } from './cost-python-callees.js';
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
const READ = /(^|\/)(search|query|lookup|preview|estimate|quote|validate|check|graphql-query)(\/|$)/i;
const WRITE = /\.(create|createMany|insert|insertOne|insertMany|save|update|updateOne|upsert|delete|deleteOne|destroy|remove|add|commit|bulkCreate|increment|decrement|persist|merge|updateMany|deleteMany|replaceOne|bulkWrite|findOneAndUpdate|findByIdAndUpdate|findOneAndDelete|findByIdAndDelete|findOneAndReplace)\s*\(|\b(INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b|\b(create|add|insert|save|register|submit|place|update|delete|remove|favorite|unfavorite|follow|unfollow|book|reserve)[A-Z_]\w*\s*\(/;
// Service-layer writes named noun first and verb last (`user_create(`, `order_item_delete(`, `get_or_create(`), the
// style of HackSoftware's Django styleguide. The verb must end the name; a name that asks, reads or prepares
// (`can_delete(`, `validate_create(`, `pre_save(`), names what comes before it (`qs_select_for_update(` locks rows),
// or computes a value (PHP's `date_create(`, `date_add(`) is no write.
const ASKING = String.raw`(?:can|should|is|has|needs?|must|may|will|get(?!_or_)|find|fetch|list|check|validate|build|prepare|render|format|serialize|parse|compute|calc|calculate|count|filter|search|select|load|read|show|preview|estimate|test|on|before|after|pre|post|for|allow|allowed|permit|last|latest|date|time|datetime|timezone)_`;
const SERVICE_WRITE = new RegExp(String.raw`\b(?!${ASKING})[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?<!_(?:for|before|after|on|pre|post|can|to))_(?:create|update|delete|remove|add|save|insert|upsert|destroy)\s*\(`);
/** Callees not followed for a write: a getter's or checker's internals (`get_mailbox()` making an SSL context) are no write of the handler. */
const ASKING_NAME = new RegExp(`^${ASKING}`);
// A mail, SMS or notification client's send method (`emailProvider.sendPasswordReset(`, `smsClient.send(`), never `res.send(`.
const EXTERNAL = /(?<![.\w])(send\w*|notify\w*|sendmail|send_mail|send_email)\s*\(|\b\w*(?:[mM]ail|[sS]ms|[nN]otif|[mM]essag|[pP]ush)\w*\.send\w*\s*\(|\.(sendMail|sendEmail|sendSms|sendMessage|sendNotification|send_message|send_mail|publish|enqueue|emit|delay|apply_async)\s*\(|\bfetch\s*\(|\b(axios|requests|httpx|got|ky)\.(post|put|patch|delete)\s*\(|\b\w*[qQ]ueue\.add\s*\(|\b(SendMessageCommand|PublishCommand|SendEmailCommand)\b|\bemails\.send\s*\(/;
/** State-changing calls on a payment provider's SDK that move no money: a duplicate still changes the account (`stripe.paymentMethods.attach`). */
const PROVIDER_MUTATION = /\b\w*(?:stripe|adyen|paypal|braintree|gateway)\w*(?:\.\w+)*\.(?:create\w*|update\w*|del|delete\w*|attach|detach|confirm|capture|cancel|pay|void\w*|finalizeInvoice|sendInvoice|markUncollectible|refund\w*|reverse|resume|pause)\s*\(/i;
const calleeExternal = (line: string): RegExpExecArray | null => EXTERNAL.exec(line) ?? PROVIDER_MUTATION.exec(line);
const calleeWrite = (line: string): RegExpExecArray | null => WRITE.exec(line) ?? SERVICE_WRITE.exec(line);
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
    const name = m?.slice(1).find(Boolean);
    if (name && !/^(if|for|while|switch|catch|return|function)$/.test(name)) return name;
  }
  return undefined;
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

export interface CostContext {
  readonly root: string;
  readonly paymentCalls: readonly PaymentCallFinding[];
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

/**
 * The duplicate cost of each endpoint, from its handler's own lines.
 * @example assessCosts(endpoints, { root, paymentCalls }).get(endpoints[0]).level // 'money'
 */
export function assessCosts(endpoints: readonly EndpointFinding[], ctx: CostContext): Map<EndpointFinding, DuplicateCost & { protection?: string }> {
  const money = moneyFunctions(ctx);
  const out = new Map<EndpointFinding, DuplicateCost & { protection?: string }>();
  for (const endpoint of endpoints) {
    // The handler's own file: a controller module when the route imports its handler from one.
    const file = endpoint.span?.file ?? fileOf(endpoint.location);
    const lines = fileLines(ctx.root, file);
    const start = endpoint.span?.start ?? lineOf(endpoint.location);
    const end = endpoint.span?.end ?? start;
    // A Python span starts at its `def` line, whose own name (`def create_item(`) is no call.
    const bodyStart = file.endsWith('.py') ? start + 1 : start;
    // The first line of a JS handler often carries the route call itself (`router.delete('/x', async … =>`).
    const first = lines[bodyStart - 1] ?? '';
    const arrow = first.lastIndexOf('=>');
    const body = [arrow >= 0 ? first.slice(arrow + 2) : first, ...lines.slice(bodyStart, end)].join('\n');
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
    // This project's own runtime already on the route: the design describes it rather than skipping the route.
    const ownRuntime = /@idempotency-builder\/runtime/.test(fileText);
    const found = PROTECTION.exec(body)?.[0];
    const protection = found && ownRuntime ? RUNTIME_PROTECTION : found;
    const name = endpoint.handler ?? '';
    let level: CostLevel;
    if (evidence.length > 0) level = 'money';
    // A checkout or payment session is a purchase, not a login session.
    else if (!endpoint.webhook && !/checkout|payment|billing-portal/i.test(endpoint.route) && (AUTH.test(endpoint.route) || AUTH_HANDLER.test(name))) {
      level = 'auth';
      evidence.push('login, logout, session or token endpoint: each call should mint a fresh result, and a stored replay would hand one session or token to another attempt');
    } else if (READ.test(endpoint.route)) {
      level = 'read';
      evidence.push('reads or computes without a write: a duplicate costs nothing');
    } else {
      const external = EXTERNAL.exec(body) ?? PROVIDER_MUTATION.exec(body);
      const write = WRITE.exec(body) ?? SERVICE_WRITE.exec(body);
      // A Python view that only validates and calls a service: what the service it calls does (one call deep).
      const read = (rel: string): readonly string[] => fileLines(ctx.root, rel);
      const python = file.endsWith('.py') && !external && !write;
      const reachedExternal = python ? probeCallees(file, fileText, body, { probe: calleeExternal, read, skip: ASKING_NAME }) : undefined;
      const reachedWrite = python && !reachedExternal ? probeCallees(file, fileText, body, { probe: calleeWrite, read, skip: ASKING_NAME }) : undefined;
      if (external) {
        level = 'external';
        evidence.push(`sends or calls out: \`${external[0].trim()}\` (${file}:${bodyStart + body.slice(0, external.index).split('\n').length - 1})`);
      } else if (write) {
        level = 'write';
        evidence.push(`writes: \`${write[0].trim()}\` (${file}:${bodyStart + body.slice(0, write.index).split('\n').length - 1})`);
      } else if (reachedExternal) {
        level = 'external';
        evidence.push(`sends or calls out through ${reachedExternal.callee}(): \`${reachedExternal.match[0].trim()}\` (${reachedExternal.location})`);
      } else if (reachedWrite) {
        level = 'write';
        evidence.push(`writes through ${reachedWrite.callee}(): \`${reachedWrite.match[0].trim()}\` (${reachedWrite.location})`);
      } else {
        level = endpoint.span ? 'none' : 'write';
        evidence.push(endpoint.span ? 'no write, message or provider call seen in the handler' : 'the handler is defined elsewhere; assumed to write');
      }
    }
    out.set(endpoint, { level, evidence, ...(protection ? { protection: `${protection} (${file}:${start})` } : {}) });
  }
  return out;
}
