/**
 * The routes every adapter under test serves: framework-neutral handlers plus the idempotency
 * options of each route. Each adapter's test maps them onto its framework; the handlers count
 * their runs so every scenario can prove how often the side effect happened.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { HttpIdempotencyOptions } from '../adapters/http/options.js';
import type { RequestBodyOptions } from '../adapters/http/request-body.js';
import { createIdempotency } from '../core/engine.js';
import { createMemoryStore, type MemoryStore } from '../stores/memory/index.js';
import { peerRoutes } from './adapter-suite-peer-routes.js';

export interface SuiteRequest {
  readonly method: string;
  /** Lower-case header name. */
  header(name: string): string | undefined;
  /**
   * The body as the framework (or the idempotency middleware) parsed it: JSON as a value, a form
   * as an object, text as a string, other bytes as a Buffer; a server that parses JSON itself
   * passes invalid JSON as its text. `undefined` when there is none.
   */
  readonly body: unknown;
}

export interface SuiteResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A whole body… */
  readonly body?: string | Uint8Array;
  /** …or one written in chunks, a few ms apart (a streamed response). */
  readonly chunks?: readonly string[];
}

export interface SuiteRoute {
  readonly method: 'POST' | 'GET';
  readonly path: string;
  /** The route's options: pass them to the adapter as they are. */
  readonly options: HttpIdempotencyOptions<unknown> & RequestBodyOptions;
  handle(request: SuiteRequest): Promise<SuiteResponse>;
}

export interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `Authorization: Bearer <user>` is the test's whole authentication. */
const bearer = (_ctx: unknown, request: { header(name: string): string | undefined }) =>
  /^Bearer (\S+)$/.exec(request.header('authorization') ?? '')?.[1];

type Body = { probe?: string; amount?: number; delayMs?: number; setMarker?: boolean };

/** Everything the scenarios read back: run counts, gates, stores and clock shifts. */
export class SuiteState {
  readonly runs = new Map<string, number>();
  sawReplayMarker = false;
  readonly stallGate = new Map<string, Deferred>();
  readonly stores: Record<'main' | 'stall' | 'expiredNew' | 'expiredReject' | 'down' | 'disabled' | 'cached', MemoryStore>;
  /** What the `/hooks` route's onReplay saw: status and body of each stored response replayed. */
  readonly replaysSeen: { status: number; body: string }[] = [];
  readonly clockShiftMs = { stall: 0, expiredNew: 0, expiredReject: 0 };
  readonly routes: readonly SuiteRoute[];

  constructor() {
    const shifted = (name: keyof SuiteState['clockShiftMs']) => () => Date.now() + this.clockShiftMs[name];
    this.stores = {
      main: createMemoryStore(),
      stall: createMemoryStore({ clock: shifted('stall') }),
      expiredNew: createMemoryStore({ clock: shifted('expiredNew') }),
      expiredReject: createMemoryStore({ clock: shifted('expiredReject') }),
      down: createMemoryStore(),
      disabled: createMemoryStore(),
      cached: createMemoryStore(),
    };
    void this.stores.down.close(); // a store that refuses every call: the outage scenario
    this.routes = this.#buildRoutes();
  }

  /** How often the handler ran for this probe. */
  count(probe: string): number {
    return this.runs.get(probe) ?? 0;
  }

  #run(request: SuiteRequest): { body: Body; run: number } {
    const parsed = request.body;
    const body = (parsed !== null && typeof parsed === 'object' && !(parsed instanceof Uint8Array) ? parsed : {}) as Body;
    if (request.header('idempotent-replayed') !== undefined) this.sawReplayMarker = true;
    const probe = body.probe ?? request.header('x-probe') ?? 'none';
    const run = this.count(probe) + 1;
    this.runs.set(probe, run);
    return { body, run };
  }

  #buildRoutes(): SuiteRoute[] {
    const main = createIdempotency({ store: this.stores.main, leaseMs: 2000 });
    // No heartbeat: a stalled handler stands for a crashed worker. Its lease ends when the test
    // moves the store clock past it (no sleeping, so a loaded machine cannot blur the timing).
    const stall = createIdempotency({ store: this.stores.stall, leaseMs: 30_000, heartbeat: false });
    const expiredNew = createIdempotency({ store: this.stores.expiredNew, ttlMs: 60_000, onExpired: 'new' });
    const expiredReject = createIdempotency({ store: this.stores.expiredReject, ttlMs: 60_000, onExpired: 'reject' });
    const down = createIdempotency({ store: this.stores.down, finishAttempts: 1 });
    // Switched off, as a test suite would; the warning it emits is expected here.
    const disabled = createIdempotency({ store: this.stores.disabled, enabled: false });
    const cached = createIdempotency({ store: this.stores.cached, replayCache: { ttlMs: 60_000 } });
    const scoped = { idempotency: main, scope: bearer };

    const payment = async (request: SuiteRequest, status = 201): Promise<SuiteResponse> => {
      const { body, run } = this.#run(request);
      if (body.delayMs) await sleep(body.delayMs);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        location: `/payments/pay_${run}`,
        'x-internal-trace': 'not-for-replay',
        'set-cookie': 'session=secret',
      };
      if (body.setMarker) headers['idempotent-replayed'] = 'true';
      return { status, headers, body: JSON.stringify({ id: `pay_${randomUUID()}`, amount: body.amount, run }) };
    };

    const route = (path: string, options: SuiteRoute['options'], handle: SuiteRoute['handle'], method: 'POST' | 'GET' = 'POST'): SuiteRoute => ({
      method,
      path,
      options,
      handle,
    });

    return [
      route('/payments', scoped, (request) => payment(request)),
      route('/payments', scoped, (request) => payment(request, 200), 'GET'),
      route('/binary', scoped, async (request) => {
        this.#run(request);
        return { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(randomBytes(4096)) };
      }),
      route('/optional', { ...scoped, required: false }, (request) => payment(request)),
      route('/global', { idempotency: main, scope: 'global', owner: bearer }, (request) => payment(request)),
      route('/ietf', { ...scoped, profile: 'ietf' }, (request) => payment(request)),
      route('/flaky', scoped, async (request) => {
        const { run } = this.#run(request);
        if (run === 1) return { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":"upstream down"}' };
        return { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, id: randomUUID() }) };
      }),
      route('/throws', scoped, async (request) => {
        const { run } = this.#run(request);
        if (run === 1) throw new Error('handler crashed');
        return { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, id: randomUUID() }) };
      }),
      route('/invalid', scoped, async (request) => {
        const { run } = this.#run(request);
        return { status: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'amount must be positive', run }) };
      }),
      route('/limited', { ...scoped, rateLimit: { newKeysPerWindow: 3, windowMs: 60_000 } }, (request) => payment(request)),
      route('/wait', { ...scoped, waitMs: 3000 }, (request) => payment(request)),
      route('/stall', { idempotency: stall, scope: bearer }, async (request) => {
        const { body, run } = this.#run(request);
        if (run === 1) await this.stallGate.get(body.probe ?? '')?.promise;
        return { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, id: randomUUID() }) };
      }),
      route('/expired-new', { idempotency: expiredNew, scope: bearer }, (request) => payment(request)),
      route('/expired-reject', { idempotency: expiredReject, scope: bearer }, (request) => payment(request)),
      route('/down', { idempotency: down, scope: bearer }, (request) => payment(request)),
      route('/down-open', { idempotency: down, scope: bearer, failOpen: true }, (request) => payment(request)),
      route('/big', { ...scoped, maxBodyBytes: 1024 }, async (request) => {
        this.#run(request);
        return { status: 201, headers: { 'content-type': 'text/plain', location: '/big/1' }, body: 'x'.repeat(8192) };
      }),
      route('/events', scoped, async (request) => {
        this.#run(request);
        return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: ['data: one\n\n', 'data: two\n\n', 'data: three\n\n'] };
      }),
      route('/chunked', scoped, async (request) => {
        const { run } = this.#run(request);
        return { status: 200, headers: { 'content-type': 'text/plain' }, chunks: [`run ${run};`, 'a'.repeat(100), 'b'.repeat(100)] };
      }),
      route('/fields', { ...scoped, fingerprint: { bodyFields: ['amount', 'currency'], headers: ['x-tenant'] } }, (request) => payment(request)),
      route('/capped', { ...scoped, maxRequestBytes: 1024 }, (request) => payment(request)),
      ...peerRoutes(this, route, payment, scoped, disabled, (request) => this.#run(request)),
      route('/cached', { idempotency: cached, scope: bearer }, (request) => payment(request)),
      // Any body at all: answers with what it received, so body scenarios can compare runs.
      route('/echo', scoped, async (request) => {
        const probe = request.header('x-probe') ?? 'none';
        const run = this.count(probe) + 1;
        this.runs.set(probe, run);
        const kind = request.body instanceof Uint8Array ? 'bytes' : request.body === undefined ? 'none' : typeof request.body;
        return { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, kind, id: randomUUID() }) };
      }),
    ];
  }
}
