/**
 * What the inspector reports about a codebase. Every finding carries `location` as `path:line`
 * (path relative to the inspected directory) so the user can check it before trusting it.
 */
import type { RouteFacts } from './route-graph.js';
import type { BROKERS, DATABASES, FRAMEWORKS, LanguageLevel, LANGUAGES, PROVIDERS } from '../answers.js';

export type Language = (typeof LANGUAGES)[number];
export type Framework = (typeof FRAMEWORKS)[number];
export type Database = (typeof DATABASES)[number];
export type Broker = (typeof BROKERS)[number];
export type Provider = (typeof PROVIDERS)[number];
export type MutatingMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One piece of evidence that the codebase uses a technology (a dependency or a client). */
export interface TechFinding<T extends string> {
  readonly value: T;
  /** `path:line` of the manifest entry or the code that shows it. */
  readonly location: string;
  /** What was seen, e.g. `dependency "pg"` or `new Pool(...)`. */
  readonly evidence: string;
}

/**
 * A route handler another module exports, as the route's file imports it: `import { pay } from
 * '../controllers/orders.js'`, `import * as orders from …` with `orders.pay`, `require(…)`.
 */
export interface HandlerImport {
  /** Files the module specifier may name, relative to the inspected directory, likeliest first. */
  readonly candidates: readonly string[];
  /** The export holding the handler: its name, or `default` (also `module.exports`). */
  readonly exportName: string;
  /** A property of that export (`orders.pay` on a default-exported object or `module.exports`). */
  readonly property?: string;
}

/** An HTTP handler that mutates state (POST/PUT/PATCH/DELETE). */
export interface EndpointFinding {
  readonly method: MutatingMethod;
  readonly route: string;
  readonly framework: Framework;
  readonly location: string;
  /** Name of the handler function or controller method when it has one. */
  readonly handler?: string;
  /** Fields the handler reads from the request body, in first-seen order. */
  readonly bodyFields: readonly string[];
  /** Declared type of the body (NestJS `@Body() dto: CreatePaymentDto`), resolved to fields later. */
  readonly bodyType?: string;
  /** True when the route or its body says it receives a provider's webhook. */
  readonly webhook: boolean;
  /**
   * 1-based line span of the handler, used to attach payment calls made inside it; `file` when the
   * handler is declared in another file than the route (a controller module), else the route's.
   */
  readonly span?: { readonly start: number; readonly end: number; readonly file?: string };
  /** Path parameters of the full route (`:id`, `{id}`), never body fields. */
  readonly pathParams?: readonly string[];
  /** Query parameters the handler reads (`req.query.x`, `Query(...)`), listed apart from the body. */
  readonly queryFields?: readonly string[];
  /** Secret-looking body fields (password, token, card number, CVC, API keys): never hashed plainly. */
  readonly secretFields?: readonly string[];
  /** What a duplicate costs, from what the handler does (provider calls reached, writes, messages). */
  readonly cost?: { readonly level: 'money' | 'external' | 'write' | 'none' | 'auth' | 'read'; readonly evidence: readonly string[] };
  /** Idempotency handling already in the handler, with `path:line`. */
  readonly protection?: string;
  /**
   * Koa: the route's registration as written, split where per-route idempotency middleware goes
   * (right before the handler): `router.post('/x', auth, ` and `users.create)`.
   */
  readonly registration?: { readonly before: string; readonly after: string };
  /** Internal: the import a handler defined in another module comes through, resolved once every file is known. */
  readonly handlerImport?: HandlerImport;
  /** Internal: the router node the route is declared on (`file#router`), resolved to its mount prefixes. */
  readonly scope?: string;
  /**
   * Internal: a handler every HTTP method runs (a Next.js pages-router handler that never checks
   * `req.method`). Its method comes from the app's own callers and it is kept only when what it
   * does mutates (any-method-routes.ts); `readsBody`: it reads `req.body`; `basis`: where its
   * method comes from, noted only if it is kept.
   */
  readonly anyMethod?: { readonly readsBody: boolean; readonly basis?: string };
  /**
   * GraphQL: the operation on the shared endpoint (`mutation createOrder`). The route is then the
   * GraphQL endpoint's path, served to every operation alike, so route middleware cannot tell them apart.
   */
  readonly operation?: string;
  /**
   * Next.js server action (`'use server'`): reached by the action id Next puts in its own
   * `Next-Action` header, on any page's URL, so the route is `/*` and `name` (the exported or
   * declared function's) is its identity. `input`: what
   * the action is given (a form's FormData, or plain arguments); `principal`: the call that reads
   * the signed-in user (`auth()`, `supabase.auth.getUser()`), as written, when the action makes one.
   */
  readonly serverAction?: { readonly name: string; readonly input: 'form' | 'arguments'; readonly principal?: string };
}

/** A provider whose money-moving calls are found; every one is a provider the plan designs for (Braintree included). */
export type CallProvider = Provider;

/** True for a provider the plan designs for: any found one (kept so callers narrow `undefined` away). */
export const isPlanProvider = (provider: CallProvider | undefined): provider is Provider => provider !== undefined;

/**
 * Where a fix goes: one line as it is in the file, the span of it that changes, and the text put
 * there, in which `{{KEY}}` stands for the key derived from the local one (the document fills it
 * in the stack's own derivation). The diff shown is built from `line`, so it is true of the file.
 */
export interface FixSite {
  readonly location: string;
  readonly line: string;
  /** 0-based column where the change starts, and how many characters it replaces (0: an insertion). */
  readonly column: number;
  readonly length: number;
  readonly text: string;
}

/** A call into a payment provider's SDK or REST API that creates or moves money. */
export interface PaymentCallFinding {
  readonly provider: CallProvider;
  /** The SDK call as written, e.g. `stripe.paymentIntents.create`, or `fetch POST /v2/checkout/orders/:id/capture`. */
  readonly call: string;
  readonly location: string;
  /** True when the call already passes a provider idempotency key / request id. */
  readonly passesIdempotencyKey: boolean;
  /** The key expression as written, when it could be seen (also through an options variable). */
  readonly keyExpression?: string;
  /** Why the key passed is not sound (random per attempt, shared by two equal purchases), when it is not. */
  readonly keyIssue?: string;
  /** The judgement of the key passed (provider-keys.ts), with its reason; absent when none is passed. */
  readonly keyVerdict?: { readonly verdict: 'sound' | 'unsound' | 'unknown'; readonly reason: string };
  /** `path:line` where the key's value is written (the variable's declaration when passed by name). */
  readonly keyLocation?: string;
  /** Where the concrete fix goes, when the key is missing or unsound and the code shape allows an edit. */
  readonly fix?: FixSite;
}

/** A message consumer (at-least-once delivery: every message may arrive twice). */
export interface ConsumerFinding {
  readonly broker: Broker;
  /** Queue, topic, subject or stream, when written as a literal. */
  readonly channel?: string;
  readonly location: string;
  readonly evidence: string;
  /** The task, worker class or method that handles each message (`send_receipt`, `ChargeCustomerJob`, `onPaymentEvent`). */
  readonly handler?: string;
  /** What a worker crash or a failed run does to the message (Celery `acks_late`, Sidekiq retries), with `path:line` of what decides it. */
  readonly redelivery?: string;
}

/** A scheduled job (cron overlap and restarts can run it twice). */
export interface SchedulerFinding {
  /** Library or mechanism, e.g. `node-cron`, `setInterval`, `@Scheduled`. */
  readonly mechanism: string;
  /** Cron expression or interval as written, when literal. */
  readonly schedule?: string;
  readonly location: string;
  /** The scheduled method or the task/job it triggers (`@Cron` on `reconcileSettlements`, beat `billing.tasks.charge`). */
  readonly handler?: string;
  /** What the user must know about it: a schedule kept in a database, computed at run time, or set in the environment. */
  readonly note?: string;
}

/**
 * Deduplication the repository already does, assessed: what it protects and which race remains.
 * `kind` says what was seen: a read-then-check (lookup by key, then insert), a unique constraint
 * on a key column, a processed-events table, a lock, a provider key already passed, or a handler
 * that handles an idempotency key itself.
 */
export interface ExistingProtectionFinding {
  readonly kind: 'read-then-check' | 'unique-constraint' | 'processed-events' | 'lock' | 'provider-key' | 'idempotency-key';
  readonly location: string;
  /** The code as written, shortened. */
  readonly evidence: string;
  /** What it stops today. */
  readonly protects: string;
  /** What still runs twice, and when. */
  readonly race: string;
}

/** Everything one file contributed. Scanners return these; the orchestrator merges them. */
export interface FileFindings {
  endpoints: EndpointFinding[];
  paymentCalls: PaymentCallFinding[];
  consumers: ConsumerFinding[];
  schedulers: SchedulerFinding[];
  databases: TechFinding<Database>[];
  brokers: TechFinding<Broker>[];
  frameworks: TechFinding<Framework>[];
}

/** What a language scanner returns for one file. */
export interface ScanResult {
  readonly findings: FileFindings;
  /** Names of request-body types declared in the file → their field names (DTO resolution). */
  readonly shapes: Map<string, string[]>;
  /** Handler function name → body type it decodes, for handlers registered in another file (Go). */
  readonly handlerBodyTypes?: Map<string, string>;
  /** Mounts, imports and exports of routers, for full paths across files. */
  readonly routeFacts?: RouteFacts;
  /** Settings another file's findings depend on (Celery `task_acks_late`), resolved once every file is read. */
  readonly settings?: ReadonlyArray<{ readonly name: string; readonly value: string; readonly location: string }>;
  /** What the design must say about the file's framework (Django Ninja `auth=`, Litestar); one copy of each is kept. */
  readonly notes?: readonly string[];
}

/** The whole report for one directory. */
export interface Inspection {
  /** Absolute path of the inspected directory. */
  readonly dir: string;
  readonly filesScanned: number;
  /** Files that passed the textual pre-filter and were parsed by a scanner. */
  readonly filesParsed?: number;
  /** Wall time of the source scan in ms (manifests excluded). */
  readonly scanMs?: number;
  /** True when the file or size bound was hit and some files were not read. */
  readonly truncated: boolean;
  /** The stack as concluded from the evidence below; absent when nothing pointed to it. */
  readonly language?: TechFinding<Language>;
  readonly framework?: TechFinding<Framework>;
  readonly database?: TechFinding<Database>;
  readonly broker?: TechFinding<Broker>;
  /** The language level from the service's build files (tsconfig, pom/Gradle, go.mod, pyproject), each setting located. */
  readonly languageLevel?: LanguageLevel;
  /** Test framework seen in manifests (vitest, jest, pytest, junit, go-test, ...). */
  readonly testFramework?: TechFinding<string>;
  /** The project's name from its top-level manifest (package name, module path tail, artifactId). */
  readonly projectName?: TechFinding<string>;
  /** npm, yarn, pnpm or bun, from the lockfile next to package.json. */
  readonly packageManager?: TechFinding<string>;
  /** Koa: where the handlers read the authenticated principal's id (`ctx.state.user.id`), the keys' scope. */
  readonly principal?: TechFinding<string>;
  readonly paymentProviders: readonly TechFinding<Provider>[];
  readonly endpoints: readonly EndpointFinding[];
  readonly paymentCalls: readonly PaymentCallFinding[];
  readonly consumers: readonly ConsumerFinding[];
  /** Endpoints that receive provider webhooks (also listed in `endpoints`). */
  readonly webhooks: readonly EndpointFinding[];
  readonly schedulers: readonly SchedulerFinding[];
  /** Deduplication code already in the repository, each assessed with `path:line`. */
  readonly existingProtection?: readonly ExistingProtectionFinding[];
  /** Every database / broker / framework / language signal, including the ones not chosen. */
  readonly evidence: {
    readonly languages: readonly TechFinding<Language>[];
    readonly frameworks: readonly TechFinding<Framework>[];
    readonly databases: readonly TechFinding<Database>[];
    readonly brokers: readonly TechFinding<Broker>[];
  };
  /** Deployment hints about concurrency, e.g. `replicas: 3` in a Kubernetes manifest. */
  readonly instances?: TechFinding<'single-server' | 'multi-instance'>;
  /** Things the user should know about the inspection itself (skipped files, parser missing). */
  readonly notes: readonly string[];
}

/**
 * A fresh, empty accumulator for one file's findings.
 * @example const out = emptyFindings(); out.endpoints.push(finding);
 */
export function emptyFindings(): FileFindings {
  return { endpoints: [], paymentCalls: [], consumers: [], schedulers: [], databases: [], brokers: [], frameworks: [] };
}
