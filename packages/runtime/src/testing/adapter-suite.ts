/**
 * The one HTTP adapter suite (Hono's `runTest({ newRouter })` pattern), public beside the store
 * conformance suite: every adapter's test file — ours, or a third party's — calls
 * `runAdapterSuite` with a factory that serves the suite routes on its real framework, and the same
 * scenarios run over real HTTP on loopback: the spec's section-11 table, hostile bodies and more.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../core/errors.js';
import { registerBodyScenarios } from './adapter-suite-body.js';
import { registerPeerScenarios } from './adapter-suite-peers.js';
import { createSuiteClient } from './adapter-suite-client.js';
import { expectHygiene, expectProblem, newKey, newProbe } from './adapter-suite-expect.js';
import { deferred, sleep, SuiteState, type SuiteRoute } from './adapter-suite-routes.js';

export { SuiteState, type SuiteRoute, type SuiteRequest, type SuiteResponse } from './adapter-suite-routes.js';
export { createSuiteClient, type CallOptions, type CallResult, type SuiteClient } from './adapter-suite-client.js';

export interface SuiteServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Scenario groups an adapter may skip, each with the reason printed in the test name. */
export type AdapterSuiteSkips = Partial<Record<'maxRequestBytes' | 'contentTypes', string>>;

export interface AdapterSuiteOptions {
  readonly name: string;
  /**
   * Serve `routes` on the framework (each with its route's idempotency options, passed as they
   * are); must reject on bad options. Map a route's `handle()` result onto the framework's
   * response, and a framework's own 4xx (a body parser's) onto problem+json, as an app should.
   */
  createServer(routes: readonly SuiteRoute[]): Promise<SuiteServer>;
  readonly skip?: AdapterSuiteSkips;
}

/**
 * Registers the suite (vitest `describe`/`it`) for one adapter.
 * @example
 * import { runAdapterSuite } from '@idempotency-builder/runtime/testing';
 * runAdapterSuite({ name: 'my framework', createServer: (routes) => serveOnMyFramework(routes) });
 */
export function runAdapterSuite({ name, createServer, skip = {} }: AdapterSuiteOptions): void {
  describe(`${name} adapter`, () => {
    const state = new SuiteState();
    let server: SuiteServer | undefined;
    const client = createSuiteClient(() => server!.url);
    const { call } = client;

    beforeAll(async () => {
      server = await createServer(state.routes);
    });
    afterAll(async () => {
      await client.close();
      await server?.close();
    });

    it('refuses to start when a route has no scope resolver', async () => {
      const unscoped = { ...state.routes[0]!, options: { idempotency: state.routes[0]!.options.idempotency } } as SuiteRoute;
      await expect(createServer([unscoped])).rejects.toThrow(InvalidOptionsError);
    });

    it('runs the first request and replays the second without running the handler again', async () => {
      const key = newKey();
      const probe = newProbe();
      const first = await call('/payments', { key, body: { amount: 4200, probe } });
      expect(first.status).toBe(201);
      expect(first.header('idempotent-replayed')).toBeUndefined();
      expect(first.header('set-cookie')).toBe('session=secret'); // the live response is untouched
      // Stored before it was sent: by the time the client has the response, the record is final.
      expect((await state.stores.main.get({ key, scope: 'alice' }))?.status).toBe('COMPLETED');
      const second = await call('/payments', { key, body: { amount: 4200, probe } });
      expect(second.status).toBe(201);
      expect(second.header('idempotent-replayed')).toBe('true');
      expect(second.text).toBe(first.text);
      expect(second.header('location')).toBe(first.header('location'));
      expect(second.header('content-type')).toBe(first.header('content-type'));
      expect(second.header('x-internal-trace')).toBeUndefined(); // not allow-listed
      expect(second.header('set-cookie')).toBeUndefined();
      expect(state.count(probe)).toBe(1);
    });

    it('answers a reused key with other parameters 409 (spec) and 422 (ietf), echoing nothing', async () => {
      for (const [path, status] of [['/payments', 409], ['/ietf', 422]] as const) {
        const key = newKey();
        const probe = newProbe();
        expect((await call(path, { key, body: { amount: 1111, probe } })).status).toBe(201);
        const reused = await call(path, { key, body: { amount: 9999, probe } });
        expectProblem(reused, status, 'fingerprint_mismatch');
        expectHygiene(reused, [key, probe, '1111', '9999']);
        expect(state.count(probe)).toBe(1);
      }
    });

    it('runs 50 concurrent duplicates exactly once; the others get 409 + Retry-After or the replay', async () => {
      const key = newKey();
      const probe = newProbe();
      const results = await Promise.all(Array.from({ length: 50 }, () => call('/payments', { key, body: { amount: 5, probe, delayMs: 300 } })));
      expect(state.count(probe)).toBe(1);
      const fresh = results.filter((r) => r.status === 201 && r.header('idempotent-replayed') === undefined);
      const replays = results.filter((r) => r.status === 201 && r.header('idempotent-replayed') === 'true');
      const conflicts = results.filter((r) => r.status === 409);
      expect(fresh).toHaveLength(1);
      expect(fresh.length + replays.length + conflicts.length).toBe(50);
      for (const conflict of conflicts) {
        expectProblem(conflict, 409, 'in_progress');
        expect(Number(conflict.header('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      for (const replay of replays) expect(replay.text).toBe(fresh[0]!.text);
    });

    it('keeps the keys of two users apart (scoped), and hides them from each other (global: 404)', async () => {
      const key = newKey();
      const probe = newProbe();
      const alice = await call('/payments', { key, user: 'alice', body: { amount: 7, probe } });
      const bob = await call('/payments', { key, user: 'bob', body: { amount: 7, probe } });
      expect([alice.status, bob.status]).toEqual([201, 201]);
      expect(bob.header('idempotent-replayed')).toBeUndefined();
      expect(bob.text).not.toBe(alice.text);
      expect(state.count(probe)).toBe(2);

      const globalKey = newKey();
      const globalProbe = newProbe();
      const owner = await call('/global', { key: globalKey, user: 'alice', body: { amount: 8, probe: globalProbe } });
      expect(owner.status).toBe(201);
      const intruder = await call('/global', { key: globalKey, user: 'mallory', body: { amount: 8, probe: globalProbe } });
      expectProblem(intruder, 404, 'key_not_found');
      expectHygiene(intruder, [owner.json<{ id: string }>().id, globalKey]);
      const again = await call('/global', { key: globalKey, user: 'alice', body: { amount: 8, probe: globalProbe } });
      expect(again.header('idempotent-replayed')).toBe('true');
      expect(state.count(globalProbe)).toBe(1);
    });

    it('treats an expired key per policy: onExpired "new" runs again, "reject" answers 422', async () => {
      const key = newKey();
      const probe = newProbe();
      expect((await call('/expired-new', { key, body: { probe } })).status).toBe(201);
      state.clockShiftMs.expiredNew += 61_000;
      const rerun = await call('/expired-new', { key, body: { probe } });
      expect(rerun.status).toBe(201);
      expect(rerun.header('idempotent-replayed')).toBeUndefined();
      expect(state.count(probe)).toBe(2);

      const rejectKey = newKey();
      const rejectProbe = newProbe();
      expect((await call('/expired-reject', { key: rejectKey, body: { probe: rejectProbe } })).status).toBe(201);
      state.clockShiftMs.expiredReject += 61_000;
      expectProblem(await call('/expired-reject', { key: rejectKey, body: { probe: rejectProbe } }), 422, 'expired_key_rejected');
      expect(state.count(rejectProbe)).toBe(1);
    });

    it('reclaims a key whose worker stalled past its lease; the stale worker cannot overwrite the record', async () => {
      const key = newKey();
      const probe = newProbe();
      const gate = deferred();
      state.stallGate.set(probe, gate);
      const stalled = call('/stall', { key, body: { probe } });
      while (state.count(probe) === 0) await sleep(5);
      const during = await call('/stall', { key, body: { probe } });
      expectProblem(during, 409, 'in_progress');
      expect(Number(during.header('retry-after'))).toBeGreaterThan(25); // the holder's lease end
      state.clockShiftMs.stall += 31_000; // the 30 s lease is over; nothing extended it
      const retry = await call('/stall', { key, body: { probe } });
      expect(retry.status).toBe(201);
      expect(retry.json<{ run: number }>().run).toBe(2);
      gate.resolve();
      const late = await stalled;
      expect(late.status).toBe(201); // its handler did run, so it learns so
      expect(late.json<{ run: number }>().run).toBe(1);
      const replay = await call('/stall', { key, body: { probe } });
      expect(replay.header('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(retry.text); // the newer holder's outcome is the record
      expect(state.count(probe)).toBe(2);
    });

    it('answers missing and malformed keys 400 problem+json, and accepts the quoted IETF form', async () => {
      const probe = newProbe();
      expectProblem(await call('/payments', { body: { probe } }), 400, 'key_required');
      for (const bad of ['bad key!', 'a'.repeat(256), '"unterminated', 'k\u00e9y']) {
        const result = await call('/payments', { key: bad, body: { probe } });
        expectProblem(result, 400, 'invalid_key');
        expectHygiene(result, [probe]);
      }
      expectProblem(await call('/payments', { key: ['one', 'two'], body: { probe } }), 400, 'invalid_key');
      expect(state.count(probe)).toBe(0);

      const key = newKey();
      const quoted = await call('/payments', { key: `"${key}"`, body: { amount: 3, probe } });
      expect(quoted.status).toBe(201);
      const plain = await call('/payments', { key, body: { amount: 3, probe } });
      expect(plain.header('idempotent-replayed')).toBe('true');
      expect(plain.text).toBe(quoted.text);
      expectProblem(await call('/payments', { key, user: '', body: { probe } }), 401, 'unauthenticated');
    });

    it('replays a binary body byte for byte', async () => {
      const key = newKey();
      const probe = newProbe();
      const first = await call('/binary', { key, body: { probe } });
      expect(first.status).toBe(200);
      expect(first.bytes.byteLength).toBe(4096);
      const replay = await call('/binary', { key, body: { probe } });
      expect(replay.header('idempotent-replayed')).toBe('true');
      expect(replay.header('content-type')).toBe('application/octet-stream');
      expect(Buffer.from(replay.bytes).equals(Buffer.from(first.bytes))).toBe(true);
      expect(state.count(probe)).toBe(1);
    });

    it('releases the key on a 5xx or a thrown handler: the retry runs again, then replays', async () => {
      for (const [path, firstStatus] of [['/flaky', 503], ['/throws', 500]] as const) {
        const key = newKey();
        const probe = newProbe();
        const failed = await call(path, { key, body: { probe } });
        expect(failed.status).toBe(firstStatus);
        expect(failed.header('idempotent-replayed')).toBeUndefined();
        const retried = await call(path, { key, body: { probe } });
        expect(retried.status).toBe(201);
        expect(retried.header('idempotent-replayed')).toBeUndefined();
        const replay = await call(path, { key, body: { probe } });
        expect(replay.header('idempotent-replayed')).toBe('true');
        expect(replay.text).toBe(retried.text);
        expect(state.count(probe)).toBe(2);
      }
    });

    it('stores a deterministic 4xx and replays it', async () => {
      const key = newKey();
      const probe = newProbe();
      const first = await call('/invalid', { key, body: { probe } });
      expect(first.status).toBe(422);
      const replay = await call('/invalid', { key, body: { probe } });
      expect(replay.status).toBe(422);
      expect(replay.header('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(first.text);
      expect(state.count(probe)).toBe(1);
    });

    it('limits new keys per user with 429 + Retry-After; replays and other users are not counted', async () => {
      const user = `rl-${randomUUID()}`;
      const keys = [newKey(), newKey(), newKey(), newKey()];
      const probe = newProbe();
      for (const key of keys.slice(0, 3)) expect((await call('/limited', { key, user, body: { probe } })).status).toBe(201);
      const limited = await call('/limited', { key: keys[3], user, body: { probe } });
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.header('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(state.count(probe)).toBe(3);
      expect(await state.stores.main.get({ key: keys[3]!, scope: user })).toBeNull(); // released, not stuck
      expect((await call('/limited', { key: keys[0], user, body: { probe } })).header('idempotent-replayed')).toBe('true');
      expect((await call('/limited', { key: newKey(), user: `other-${user}`, body: { probe } })).status).toBe(201);
    });

    it('lets an in-flight duplicate wait for the first and replay instead of 409 (wait mode)', async () => {
      const key = newKey();
      const probe = newProbe();
      const first = call('/wait', { key, body: { probe, delayMs: 300 } });
      while (state.count(probe) === 0) await sleep(5);
      const second = await call('/wait', { key, body: { probe, delayMs: 300 } });
      expect(second.status).toBe(201);
      expect(second.header('idempotent-replayed')).toBe('true');
      expect(second.text).toBe((await first).text);
      expect(state.count(probe)).toBe(1);
    });

    it('passes GET through untouched, even with a malformed key', async () => {
      const probe = newProbe();
      for (let i = 0; i < 2; i++) {
        const result = await call('/payments', { method: 'GET', key: 'bad key!', headers: { 'x-probe': probe } });
        expect(result.status).toBe(200);
        expect(result.header('idempotent-replayed')).toBeUndefined();
      }
      expect(state.count(probe)).toBe(2);
    });

    it('never lets a client or a handler fake a replay marker', async () => {
      const key = newKey();
      const probe = newProbe();
      state.sawReplayMarker = false;
      const spoofed = await call('/payments', { key, body: { probe, setMarker: true }, headers: { 'idempotent-replayed': 'true' } });
      expect(spoofed.status).toBe(201);
      expect(spoofed.header('idempotent-replayed')).toBeUndefined();
      expect(state.sawReplayMarker).toBe(false);
      expect(state.count(probe)).toBe(1);
    });

    it('fails closed with 503 when the store is down, and runs unprotected where fail-open is chosen', async () => {
      const probe = newProbe();
      const closed = await call('/down', { key: newKey(), body: { probe } });
      expectProblem(closed, 503, 'store_unavailable');
      expect(state.count(probe)).toBe(0);
      const open = await call('/down-open', { key: newKey(), body: { probe } });
      expect(open.status).toBe(201);
      expect(state.count(probe)).toBe(1);
    });

    it('sends a body past maxBodyBytes whole, and replays its status and headers without it', async () => {
      const key = newKey();
      const probe = newProbe();
      const first = await call('/big', { key, body: { probe } });
      expect(first.status).toBe(201);
      expect(first.text).toBe('x'.repeat(8192));
      const replay = await call('/big', { key, body: { probe } });
      expect(replay.status).toBe(201);
      expect(replay.header('idempotent-replayed')).toBe('true');
      expect(replay.header('location')).toBe('/big/1');
      expect(replay.bytes.byteLength).toBe(0);
      expect(state.count(probe)).toBe(1);
    });

    it('passes an event stream through and records it; a chunked body under the cap replays whole', async () => {
      const key = newKey();
      const probe = newProbe();
      const events = await call('/events', { key, body: { probe } });
      expect(events.text).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
      const eventsReplay = await call('/events', { key, body: { probe } });
      expect(eventsReplay.status).toBe(200);
      expect(eventsReplay.header('idempotent-replayed')).toBe('true');
      expect(eventsReplay.bytes.byteLength).toBe(0);
      expect(state.count(probe)).toBe(1);

      const chunkedKey = newKey();
      const chunkedProbe = newProbe();
      const chunked = await call('/chunked', { key: chunkedKey, body: { probe: chunkedProbe } });
      expect(chunked.text).toBe(`run 1;${'a'.repeat(100)}${'b'.repeat(100)}`);
      const chunkedReplay = await call('/chunked', { key: chunkedKey, body: { probe: chunkedProbe } });
      expect(chunkedReplay.header('idempotent-replayed')).toBe('true');
      expect(chunkedReplay.text).toBe(chunked.text);
      expect(state.count(chunkedProbe)).toBe(1);
    });

    it('fingerprints only the configured body fields and headers', async () => {
      const key = newKey();
      const probe = newProbe();
      const tenant = { 'x-tenant': 'acme' };
      const base = { amount: 10, currency: 'EUR', probe };
      expect((await call('/fields', { key, body: { ...base, note: 'a' }, headers: tenant })).status).toBe(201);
      const otherNote = await call('/fields', { key, body: { note: 'b', ...base }, headers: tenant });
      expect(otherNote.header('idempotent-replayed')).toBe('true');
      expectProblem(await call('/fields', { key, body: { ...base, amount: 11 }, headers: tenant }), 409, 'fingerprint_mismatch');
      expectProblem(await call('/fields', { key, body: base, headers: { 'x-tenant': 'other' } }), 409, 'fingerprint_mismatch');
      expect(state.count(probe)).toBe(1);
    });

    it('runs an optional-key route unprotected without a key, and protected with one', async () => {
      const probe = newProbe();
      for (let i = 0; i < 2; i++) expect((await call('/optional', { body: { probe } })).status).toBe(201);
      expect(state.count(probe)).toBe(2);
      const key = newKey();
      await call('/optional', { key, body: { probe } });
      expect((await call('/optional', { key, body: { probe } })).header('idempotent-replayed')).toBe('true');
      expect(state.count(probe)).toBe(3);
    });
    registerBodyScenarios({ state, call, skip });
    registerPeerScenarios({ state, call });
  });
}
