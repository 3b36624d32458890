/**
 * What the inspector reports about a codebase. Every finding carries `location` as `path:line`
 * (path relative to the inspected directory) so the user can check it before trusting it.
 */
import type { RouteFacts } from './route-graph.js';
import type { BROKERS, DATABASES, FRAMEWORKS, LANGUAGES, PROVIDERS } from '../answers.js';

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
  /** 1-based line span of the handler, used to attach payment calls made inside it. */
  readonly span?: { readonly start: number; readonly end: number };
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
  /** Internal: the router node the route is declared on (`file#router`), resolved to its mount prefixes. */
  readonly scope?: string;
}

/** A call into a payment provider's SDK that creates or moves money. */
export interface PaymentCallFinding {
  readonly provider: Provider;
  /** The SDK call as written, e.g. `stripe.paymentIntents.create`. */
  readonly call: string;
  readonly location: string;
  /** True when the call already passes a provider idempotency key / request id. */
  readonly passesIdempotencyKey: boolean;
  /** The key expression as written, when it could be seen (also through an options variable). */
  readonly keyExpression?: string;
  /** Why the key passed is not sound (random per attempt, shared by two equal purchases), when it is not. */
  readonly keyIssue?: string;
}

/** A message consumer (at-least-once delivery: every message may arrive twice). */
export interface ConsumerFinding {
  readonly broker: Broker;
  /** Queue, topic, subject or stream, when written as a literal. */
  readonly channel?: string;
  readonly location: string;
  readonly evidence: string;
}

/** A scheduled job (cron overlap and restarts can run it twice). */
export interface SchedulerFinding {
  /** Library or mechanism, e.g. `node-cron`, `setInterval`, `@Scheduled`. */
  readonly mechanism: string;
  /** Cron expression or interval as written, when literal. */
  readonly schedule?: string;
  readonly location: string;
  /** The scheduled method, when the mechanism names one (`@Cron` on `reconcileSettlements`). */
  readonly handler?: string;
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
  /** Test framework seen in manifests (vitest, jest, pytest, junit, go-test, ...). */
  readonly testFramework?: TechFinding<string>;
  /** The project's name from its top-level manifest (package name, module path tail, artifactId). */
  readonly projectName?: TechFinding<string>;
  /** npm, yarn, pnpm or bun, from the lockfile next to package.json. */
  readonly packageManager?: TechFinding<string>;
  readonly paymentProviders: readonly TechFinding<Provider>[];
  readonly endpoints: readonly EndpointFinding[];
  readonly paymentCalls: readonly PaymentCallFinding[];
  readonly consumers: readonly ConsumerFinding[];
  /** Endpoints that receive provider webhooks (also listed in `endpoints`). */
  readonly webhooks: readonly EndpointFinding[];
  readonly schedulers: readonly SchedulerFinding[];
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
