/**
 * The adapter suite's scenarios for the features peers' users expect: storing a 5xx once the
 * handler began (`serverErrors: 'store'`), `skip`, `onReplay`/`beforeStore`, the disabled engine
 * and the key taken from the body. Each proves how often the handler ran.
 */
import { expect, it } from 'vitest';
import type { CallOptions, CallResult } from './adapter-suite-client.js';
import { expectProblem, newKey, newProbe } from './adapter-suite-expect.js';
import type { SuiteState } from './adapter-suite-routes.js';

export interface PeerScenarioContext {
  readonly state: SuiteState;
  call(path: string, options?: CallOptions): Promise<CallResult>;
}

export function registerPeerScenarios({ state, call }: PeerScenarioContext): void {
  it("stores a 5xx with serverErrors: 'store' and replays it; a thrown handler replays as 500 replayed_failure", async () => {
    const key = newKey();
    const probe = newProbe();
    const first = await call('/store-5xx', { key, body: { probe } });
    expect(first.status).toBe(502);
    const replay = await call('/store-5xx', { key, body: { probe } });
    expect(replay.status).toBe(502);
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(state.count(probe)).toBe(1);

    const crashKey = newKey();
    const crashProbe = newProbe();
    expect((await call('/store-throws', { key: crashKey, body: { probe: crashProbe } })).status).toBe(500);
    // Recorded either way: as the framework's own 500 where the adapter captures the error
    // handler's answer (COMPLETED, replayed with the marker), or as the handler's failure (FAILED).
    const record = await state.stores.main.get({ key: crashKey, scope: 'alice' });
    const again = await call('/store-throws', { key: crashKey, body: { probe: crashProbe } });
    expect(again.status).toBe(500);
    if (record?.status === 'FAILED') expectProblem(again, 500, 'replayed_failure');
    else {
      expect(record?.status).toBe('COMPLETED');
      expect(again.header('idempotent-replayed')).toBe('true');
    }
    expect(state.count(crashProbe)).toBe(1);
  });

  it('bypasses idempotency for requests the skip predicate selects, and only for them', async () => {
    const key = newKey();
    const probe = newProbe();
    const health = { 'x-health-check': '1' };
    for (let i = 0; i < 2; i++) {
      const skipped = await call('/skippable', { key, body: { probe }, headers: health });
      expect(skipped.status).toBe(201);
      expect(skipped.header('idempotent-replayed')).toBeUndefined();
    }
    expect((await call('/skippable', { body: { probe }, headers: health })).status).toBe(201); // no key needed either
    expect(state.count(probe)).toBe(3);
    expect(await state.stores.main.get({ key, scope: 'alice' })).toBeNull(); // nothing claimed
    expect((await call('/skippable', { key, body: { probe } })).status).toBe(201);
    expect((await call('/skippable', { key, body: { probe } })).header('idempotent-replayed')).toBe('true');
    expect(state.count(probe)).toBe(4);
  });

  it('calls onReplay with the stored response (a throwing hook changes nothing); beforeStore adjusts or vetoes', async () => {
    const key = newKey();
    const probe = newProbe();
    const first = await call('/hooks', { key, body: { probe } });
    expect(first.status).toBe(201);
    const before = state.replaysSeen.length;
    const replay = await call('/hooks', { key, body: { probe } });
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(state.replaysSeen.slice(before)).toEqual([{ status: 201, body: first.text }]);

    const redactKey = newKey();
    const redacted = await call('/hooks', { key: redactKey, body: { probe }, headers: { 'x-redact': '1' } });
    expect(redacted.json<{ run: number }>().run).toBeGreaterThan(0); // the client gets the real response
    const redactedReplay = await call('/hooks', { key: redactKey, body: { probe }, headers: { 'x-redact': '1' } });
    expect(redactedReplay.header('idempotent-replayed')).toBe('true');
    expect(redactedReplay.text).toBe('{"redacted":true}');

    const vetoKey = newKey();
    expect((await call('/hooks', { key: vetoKey, body: { probe }, headers: { 'x-veto': '1' } })).status).toBe(201);
    expect(await state.stores.main.get({ key: vetoKey, scope: 'alice' })).toBeNull(); // vetoed: released
    const rerun = await call('/hooks', { key: vetoKey, body: { probe }, headers: { 'x-veto': '1' } });
    expect(rerun.header('idempotent-replayed')).toBeUndefined();
    expect(state.count(probe)).toBe(4);
  });

  it('runs every request on a disabled engine: no key needed, nothing stored, nothing replayed', async () => {
    const key = newKey();
    const probe = newProbe();
    for (const options of [{ key }, { key }, {}]) {
      const result = await call('/disabled', { ...options, body: { probe } });
      expect(result.status).toBe(201);
      expect(result.header('idempotent-replayed')).toBeUndefined();
    }
    expect(state.count(probe)).toBe(3);
    expect(await state.stores.disabled.get({ key, scope: 'alice' })).toBeNull();
  });

  it('replays from the replay cache without the store, byte for byte (and, as documented, after the record is gone)', async () => {
    const key = newKey();
    const probe = newProbe();
    const first = await call('/cached', { key, body: { probe } });
    expect(first.status).toBe(201);
    expect(state.stores.cached.records.size).toBeGreaterThan(0);
    // Drop every record behind the cache's back: only the cache can answer now.
    (state.stores.cached.records as Map<string, unknown>).clear();
    const replay = await call('/cached', { key, body: { probe } });
    expect(replay.status).toBe(201);
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(replay.header('location')).toBe(first.header('location'));
    expectProblem(await call('/cached', { key, body: { probe, amount: 2 } }), 409, 'fingerprint_mismatch');
    expect(state.count(probe)).toBe(1);
  });

  it('takes the key from the body by path: replays, 400 key_required when absent, 400 invalid_key when malformed', async () => {
    const id = newKey();
    const probe = newProbe();
    const first = await call('/body-key', { body: { order: { id }, probe } });
    expect(first.status).toBe(201);
    const replay = await call('/body-key', { body: { order: { id }, probe }, key: 'a-header-key-is-ignored' });
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    const numeric = Date.now() * 1000 + Math.floor(Math.random() * 1000);
    expect((await call('/body-key', { body: { order: { id: numeric }, probe } })).status).toBe(201);
    expect((await call('/body-key', { body: { order: { id: numeric }, probe } })).header('idempotent-replayed')).toBe('true');
    expect(state.count(probe)).toBe(2);
    for (const body of [{ probe }, { order: 'ord_1', probe }, { order: { id: '' }, probe }, { order: { id: null }, probe }]) {
      const missing = await call('/body-key', { body, key: newKey() });
      expectProblem(missing, 400, 'key_required');
      expect(missing.json<{ title: string }>().title).toContain('order.id');
    }
    for (const id of ['bad key!', 'a'.repeat(256), 1.5, { nested: true }, ['x']]) {
      expectProblem(await call('/body-key', { body: { order: { id }, probe } }), 400, 'invalid_key');
    }
    expect(state.count(probe)).toBe(2);
  });
}
