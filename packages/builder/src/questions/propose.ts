/**
 * What the code answers: turns an inspection into proposed answers — the protected actions and
 * the stack — each with its provenance (`code` + `path:line`, or the assumption made). Nothing
 * here asks; the flow decides what is still open.
 */
import type { Action, Answers } from '../answers.js';
import type { ConsumerFinding, EndpointFinding, Inspection, PaymentCallFinding, Provider, SchedulerFinding } from '../inspect/types.js';
import { defaultFields } from './defaults.js';
import { camelCase, consumerActionName, httpActionName, jobActionName, uniqueNames, webhookActionName } from './naming.js';
import { RUNTIME_PROTECTION } from '../inspect/cost.js';
import { isPlanProvider } from '../inspect/types.js';

export type Provenance = Answers['provenance'][string];

export interface Proposed<T> {
  readonly value: T;
  readonly provenance: Provenance;
}

export interface ProposedAction {
  readonly action: Action;
  /** Extra provenance entries for this action (fields or provider that were assumed). */
  readonly notes: Readonly<Record<string, Provenance>>;
  /** Sort rank: money first, then webhooks, then the rest. */
  readonly rank: number;
}

export interface Proposals {
  readonly actions: readonly ProposedAction[];
  /** Found but not protected by default, each with the reason (shown to the user). */
  readonly skipped: readonly string[];
  readonly language?: Proposed<Answers['stack']['language']>;
  readonly framework?: Proposed<Answers['stack']['framework']>;
  readonly database?: Proposed<Answers['stack']['database']>;
  readonly broker?: Proposed<Answers['stack']['broker']>;
  readonly testFramework?: Proposed<NonNullable<Answers['stack']['testFramework']>>;
  /** The language level from the build files; each setting carries its own `path:line`. */
  readonly level?: NonNullable<Answers['stack']['level']>;
  readonly projectName?: Proposed<string>;
  readonly paymentProviders?: Proposed<Provider[]>;
  readonly concurrency?: Proposed<Answers['concurrency']>;
  /** Koa: the principal the handlers read on `ctx.state`. */
  readonly principal?: Proposed<string>;
}

/** No fixed cap drops an action: every mutating entry point with a duplicate cost is proposed, ranked by that cost. */
export const MAX_PROPOSED_ACTIONS = Number.POSITIVE_INFINITY;

/** Fields that never distinguish one intent from another (see the design's excluded fields). */
const NOT_SIGNIFICANT = /^(idempotency_?key|request_?id|trace_?id|correlation_?id|timestamp|created_?at|sent_?at|nonce|signature|user_?agent|client_?version|description|note|notes|memo|metadata|return_?url|callback_?url|redirect_?url|locale)$/i;

const code = (location: string): Provenance => ({ source: 'code', detail: location });
const assumption = (detail: string): Provenance => ({ source: 'assumption', detail });

function fileOf(location: string): string {
  return location.replace(/:\d+$/, '');
}

function lineOfLocation(location: string): number {
  return Number(/:(\d+)$/.exec(location)?.[1] ?? 0);
}

/** Payment calls made inside the handler's own lines. */
function callsIn(endpoint: EndpointFinding, calls: readonly PaymentCallFinding[]): PaymentCallFinding[] {
  const { span } = endpoint;
  if (!span) return [];
  // The handler may live in a controller module the route imports it from.
  const file = span.file ?? fileOf(endpoint.location);
  return calls.filter((c) => fileOf(c.location) === file && lineOfLocation(c.location) >= span.start && lineOfLocation(c.location) <= span.end);
}

function webhookProvider(route: string, providers: readonly Provider[]): Provider | undefined {
  const named = /(stripe|adyen|paypal)/i.exec(route)?.[1]?.toLowerCase() as Provider | undefined;
  return named ?? (providers.length === 1 ? providers[0] : undefined);
}

function fieldsNote(kind: Action['kind'], provider: Provider | undefined): string {
  const fields = defaultFields(kind, provider).join(', ');
  switch (kind) {
    case 'webhook': return `the provider's event id and type (${fields}) identify a webhook delivery; the handler's own reads were not visible in the code`;
    case 'consumer':
    case 'job': return 'the whole message payload (canonical JSON) is hashed, since the consumer does not name the fields it reads';
    case 'cron': return 'a scheduled run is identified by the job name and the schedule slot it runs for';
    default: return provider
      ? `no request fields were visible in the handler; the payment fields ${fields} are assumed — correct them in an answers file`
      : 'no request fields were visible in the handler; the whole request body (canonical JSON) is hashed — name the significant fields in an answers file to narrow it';
  }
}

function endpointAction(endpoint: EndpointFinding, inspection: Inspection, providers: readonly Provider[]): ProposedAction {
  const calls = callsIn(endpoint, inspection.paymentCalls);
  const kind: Action['kind'] = endpoint.webhook ? 'webhook' : 'http';
  const notes: Record<string, Provenance> = {};
  // The provider comes from a call the handler reaches (directly or through a service), never from words in its path.
  const reached = endpoint.cost?.level === 'money' ? inspection.paymentCalls.find((c) => endpoint.cost?.evidence.some((e) => e.includes(c.location))) : undefined;
  let provider: Provider | undefined = [calls[0]?.provider, reached?.provider].find(isPlanProvider);
  if (!provider && kind === 'webhook') provider = webhookProvider(endpoint.route, providers);
  // Body fields only (the route binds the path), secrets never hashed plainly. A body field named
  // like a path parameter (`req.body.id` beside `:id`) is another value, so it stays.
  const secrets = new Set(endpoint.secretFields ?? []);
  const fields = [...new Set(endpoint.bodyFields)].filter((f) => !NOT_SIGNIFICANT.test(f) && !secrets.has(f));
  if (secrets.size > 0) notes.secretFields = code(`${[...secrets].join(', ')} left out of the fingerprint (secrets are never stored, even hashed) — ${endpoint.location}`);
  if (fields.length === 0) notes.significantFields = assumption(fieldsNote(kind, provider));
  const effect = calls.length > 0
    ? `calls ${calls.map((c) => `${c.call} (${c.location})`).join(', ')}`
    : kind === 'webhook' ? `receives ${provider ?? 'provider'} webhook events` : `(${endpoint.handler ? `handler ${endpoint.handler}` : 'inline handler'})`;
  // A GraphQL mutation is named by its operation: the route is the endpoint every operation shares.
  const operationName = endpoint.operation?.replace(/^mutation /, '');
  // A server action is named by its function: every action shares the route `/*`.
  const actionName = operationName ?? endpoint.serverAction?.name;
  const name = kind === 'webhook' ? webhookActionName(endpoint.route) : actionName ? camelCase(actionName) : httpActionName(endpoint.method, endpoint.route, endpoint.handler);
  const action: Action = {
    name,
    kind,
    description: `${endpoint.operation ? `${endpoint.operation} on ` : endpoint.serverAction ? `server action ${endpoint.serverAction.name} on ` : ''}${endpoint.method} ${endpoint.route} ${effect}`,
    method: endpoint.method,
    route: endpoint.route,
    ...(endpoint.operation ? { operation: endpoint.operation } : {}),
    ...(endpoint.serverAction ? { serverAction: endpoint.serverAction.name } : {}),
    ...(endpoint.serverAction?.principal ? { principalCall: endpoint.serverAction.principal } : {}),
    // No named field: [] = the canonical JSON of the whole body (the runtime's default); never invented names.
    significantFields: fields.length > 0 || kind === 'http' ? fields : defaultFields(kind, provider),
    ...(provider ? { provider } : {}),
    keySource: kind === 'webhook' ? 'derived' : 'client',
    location: endpoint.location,
    ...(endpoint.registration ? { registration: endpoint.registration } : {}),
  };
  const costRank = { money: 0, external: 2, write: 3, none: 4, read: 5, auth: 5 }[endpoint.cost?.level ?? 'write'];
  return { action, notes, rank: kind === 'webhook' ? 1 : costRank };
}

/** The redelivery assessment in a few words: Celery's acks_late verdict, or what decides redelivery. */
function deliveryNote(redelivery: string | undefined): string {
  if (!redelivery) return '';
  const head = redelivery.slice(0, redelivery.indexOf(':') < 0 ? undefined : redelivery.indexOf(':'));
  if (head.startsWith('acks_late on')) return `; ${head} — a worker crash redelivers the task, so it runs again`;
  if (head.startsWith('acks_late off')) return `; ${head} — a worker crash loses the task instead of repeating it`;
  return `; ${head}`;
}

function consumerAction(consumer: ConsumerFinding): ProposedAction {
  const kind: Action['kind'] = consumer.broker === 'bullmq' || consumer.broker === 'other' ? 'job' : 'consumer';
  const source = `${consumer.broker === 'other' ? '' : `${consumer.broker} `}${consumer.channel ? `"${consumer.channel}"` : kind === 'job' ? 'its queue' : 'messages'}`;
  const action: Action = {
    // The task, worker or listener method names the action; the channel only when there is none.
    name: consumerActionName(consumer.channel, consumer.handler, consumer.location),
    kind,
    description: `${consumer.handler
      ? `${consumer.handler} ${kind === 'job' ? 'runs jobs from' : 'consumes'} ${source} (${consumer.evidence})`
      : `${kind === 'job' ? 'Processes jobs from' : 'Consumes'} ${source} (${consumer.evidence})`}${deliveryNote(consumer.redelivery)}`,
    ...(consumer.channel ? { channel: plainChannel(consumer.channel) } : {}),
    significantFields: defaultFields(kind, undefined),
    keySource: 'derived',
    location: consumer.location,
  };
  return { action, notes: { significantFields: assumption(fieldsNote(kind, undefined)) }, rank: 4 };
}

/** A channel or schedule as the plan accepts it: no quotes, backticks, angle brackets or control characters (`cron "0 2 * * *"` → `cron 0 2 * * *`). */
function plainChannel(text: string): string {
  const printable = [...text].map((c) => (c.charCodeAt(0) < 0x20 ? ' ' : c)).join('');
  return printable.replace(/["'`]/g, '').replace(/[\\<>]+/g, ' ').replace(/\s+/g, ' ').trim();
}

function schedulerAction(scheduler: SchedulerFinding): ProposedAction {
  const action: Action = {
    name: jobActionName(scheduler.location, scheduler.handler) + (scheduler.mechanism === 'setInterval' && !scheduler.handler ? 'Interval' : ''),
    kind: 'cron',
    description: `Scheduled job (${scheduler.mechanism}${scheduler.schedule ? ` ${scheduler.schedule}` : ''}${scheduler.handler ? ` → ${scheduler.handler}` : ''})`,
    ...(scheduler.schedule ? { channel: plainChannel(scheduler.schedule) } : {}),
    significantFields: defaultFields('cron', undefined),
    keySource: 'derived',
    location: scheduler.location,
  };
  return { action, notes: { significantFields: assumption(fieldsNote('cron', undefined)) }, rank: 5 };
}

const TEST_FRAMEWORK_MAP: Record<string, NonNullable<Answers['stack']['testFramework']>> = {
  vitest: 'vitest', jest: 'jest', mocha: 'mocha', pytest: 'pytest', 'go-test': 'go-test', junit: 'junit5',
};

/**
 * Proposes answers from what the code shows.
 * @example
 * const proposals = proposeFromInspection(await inspectCodebase('.'));
 * proposals.actions.map((p) => p.action.name); // ['createPayment', 'refundPayment', 'processStripeWebhook', ...]
 */
export function proposeFromInspection(inspection: Inspection): Proposals {
  const providers = [...new Set(inspection.paymentProviders.map((p) => p.value))];
  const skipped: string[] = [];
  const candidates: ProposedAction[] = [];
  for (const endpoint of inspection.endpoints) {
    const moneyInside = callsIn(endpoint, inspection.paymentCalls).length > 0 || endpoint.cost?.level === 'money';
    // Login, logout, sessions, tokens and reads: a stored replay would hand one result to another attempt, or a duplicate costs nothing.
    if (!endpoint.webhook && (endpoint.cost?.level === 'auth' || endpoint.cost?.level === 'read')) {
      skipped.push(`${endpoint.method} ${endpoint.route}${endpoint.operation ? ` ${endpoint.operation}` : endpoint.serverAction ? ` server action ${endpoint.serverAction.name}` : ''} (${endpoint.location}): not protected — ${endpoint.cost.evidence.join('; ')}`);
      continue;
    }
    // Existing handling is assessed rather than stacked on — except where money moves: a provider
    // key taken from the request (e.g. the client's header passed to Stripe) dedupes at the
    // provider only, unscoped, and leaves the local record unprotected.
    // The runtime's own middleware already on the route: designed as what it is (the document
    // describes and tests the protection in place), never skipped.
    const ownRuntime = endpoint.protection?.startsWith(RUNTIME_PROTECTION) === true;
    if (endpoint.protection && !moneyInside && !ownRuntime) {
      skipped.push(`${endpoint.method} ${endpoint.route}${endpoint.operation ? ` ${endpoint.operation}` : endpoint.serverAction ? ` server action ${endpoint.serverAction.name}` : ''} (${endpoint.location}): already has idempotency handling (${endpoint.protection}); assess it rather than stacking a second layer`);
      continue;
    }
    // `PUT /orders/{id}/cancel` is a state transition, not a replace: only plain resources are skipped.
    const verbAfterParam = /[:{[][^/]*[\]}]?\/[A-Za-z-]+\/?$/.test(endpoint.route);
    if ((endpoint.method === 'PUT' || endpoint.method === 'DELETE') && !endpoint.webhook && !moneyInside && !verbAfterParam) {
      skipped.push(`${endpoint.method} ${endpoint.route}${endpoint.operation ? ` ${endpoint.operation}` : endpoint.serverAction ? ` server action ${endpoint.serverAction.name}` : ''} (${endpoint.location}): ${endpoint.method} is idempotent by HTTP semantics when it replaces or deletes; add it in an answers file if it has other side effects`);
      continue;
    }
    candidates.push(endpointAction(endpoint, inspection, providers));
  }
  // A schedule that names nothing it runs (kept in a database, computed at run time) is reported, not designed for.
  const unnamed = inspection.schedulers.filter((s) => !s.handler && !s.schedule && s.note);
  for (const s of unnamed) skipped.push(`${s.mechanism} (${s.location}): ${s.note ?? ''}`);
  candidates.push(...inspection.consumers.map(consumerAction), ...inspection.schedulers.filter((s) => !unnamed.includes(s)).map(schedulerAction));
  const ordered = candidates.map((c, index) => ({ c, index })).sort((a, b) => a.c.rank - b.c.rank || a.index - b.index).map(({ c }) => c);
  for (const extra of ordered.slice(MAX_PROPOSED_ACTIONS)) {
    skipped.push(`${extra.action.description} (${extra.action.location}): more than ${MAX_PROPOSED_ACTIONS} actions found; add it in an answers file`);
  }
  const kept = ordered.slice(0, MAX_PROPOSED_ACTIONS);
  // A beat entry or cron that triggers a task also found as a job is the schedule of that task: `scheduleChargeSubscriptions`.
  const jobs = new Set(kept.filter((c) => c.action.kind !== 'cron').map((c) => c.action.name));
  const named = kept.map((c) => (c.action.kind === 'cron' && jobs.has(c.action.name) ? camelCase(`schedule ${c.action.name}`) : c.action.name));
  const names = uniqueNames(named, kept.map((c) => ({ method: c.action.method, route: c.action.route })));
  const actions = kept.map((c, index) => ({ ...c, action: { ...c.action, name: names[index] ?? c.action.name } }));

  const from = <T>(finding: { value: T; location: string } | undefined): Proposed<T> | undefined =>
    finding ? { value: finding.value, provenance: code(finding.location) } : undefined;
  const testFramework = inspection.testFramework ? TEST_FRAMEWORK_MAP[inspection.testFramework.value] ?? 'other' : undefined;
  const firstProvider = inspection.paymentProviders[0];
  return {
    actions,
    skipped,
    ...(inspection.language ? { language: from(inspection.language) } : {}),
    ...(inspection.framework ? { framework: from(inspection.framework) } : {}),
    ...(inspection.database ? { database: from(inspection.database) } : {}),
    ...(inspection.broker ? { broker: from(inspection.broker) } : {}),
    ...(testFramework && inspection.testFramework ? { testFramework: { value: testFramework, provenance: code(inspection.testFramework.location) } } : {}),
    ...(inspection.projectName ? { projectName: from(inspection.projectName) } : {}),
    ...(inspection.languageLevel ? { level: inspection.languageLevel } : {}),
    ...(firstProvider ? { paymentProviders: { value: providers, provenance: code(firstProvider.location) } } : {}),
    ...(inspection.instances ? { concurrency: from(inspection.instances) } : {}),
    ...(inspection.principal ? { principal: from(inspection.principal) } : {}),
  };
}
