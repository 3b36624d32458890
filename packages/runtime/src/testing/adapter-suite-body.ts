/**
 * The adapter suite's hostile-body scenarios: JSON the fingerprint cannot hash, bodies of every
 * content type, a body over `maxRequestBytes`, the query string and fingerprint collisions. Each
 * refusal is problem+json with a stable code, never a 5xx or a stack trace, and claims nothing.
 */
import { expect, it } from 'vitest';
import type { AdapterSuiteSkips } from './adapter-suite.js';
import type { CallOptions, CallResult } from './adapter-suite-client.js';
import { expectHygiene, expectNoStackTrace, expectProblem, newKey, newProbe } from './adapter-suite-expect.js';
import type { SuiteState } from './adapter-suite-routes.js';

export interface BodyScenarioContext {
  readonly state: SuiteState;
  call(path: string, options?: CallOptions): Promise<CallResult>;
  readonly skip: AdapterSuiteSkips;
}

/** Bodies whose JSON parses but cannot be hashed without a crash or a collision. */
export const UNHASHABLE_JSON: Readonly<Record<string, string>> = {
  'a number past double range (1e309)': '{"amount":1e309,"currency":"EUR"}',
  'a lone surrogate': '{"note":"\\ud800","amount":1}',
  'nesting 20,000 deep': `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  'an integer past 2^53': '{"amount":9007199254740993}',
};

const bodyless = () => {};

export function registerBodyScenarios({ state, call, skip }: BodyScenarioContext): void {
  const echo = (key: string, probe: string, options: CallOptions) => call('/echo', { key, ...options, headers: { 'x-probe': probe, ...options.headers } });

  it('answers JSON it cannot hash with 400 invalid_body and claims nothing', async () => {
    for (const [label, rawBody] of Object.entries(UNHASHABLE_JSON)) {
      const key = newKey();
      const probe = newProbe();
      const result = await echo(key, probe, { rawBody, contentType: 'application/json' });
      expect({ label, status: result.status }).toEqual({ label, status: 400 });
      expectProblem(result, 400, 'invalid_body');
      expectNoStackTrace(result);
      expectHygiene(result, [key, probe]);
      expect(await state.stores.main.get({ key, scope: 'alice' })).toBeNull();
      expect(state.count(probe)).toBe(0);
    }
  });

  it('tells a missing body field from an explicit null (bodyFields)', async () => {
    const key = newKey();
    const probe = newProbe();
    expect((await call('/fields', { key, body: { amount: 10, currency: null, probe }, headers: { 'x-tenant': 'acme' } })).status).toBe(201);
    expectProblem(await call('/fields', { key, body: { amount: 10, probe }, headers: { 'x-tenant': 'acme' } }), 409, 'fingerprint_mismatch');
    expect(state.count(probe)).toBe(1);
  });

  it('makes the query string part of the intent: another ?amount with a used key is 409, not the replay', async () => {
    const key = newKey();
    const probe = newProbe();
    const body = { probe };
    expect((await call('/payments', { key, body, query: '?amount=1&currency=EUR' })).status).toBe(201);
    const other = await call('/payments', { key, body, query: '?amount=1000000&currency=EUR' });
    expectProblem(other, 409, 'fingerprint_mismatch');
    expectHygiene(other, [key, '1000000']);
    const reordered = await call('/payments', { key, body, query: '?currency=EUR&amount=1' });
    expect(reordered.header('idempotent-replayed')).toBe('true');
    expect(state.count(probe)).toBe(1);
  });

  if (skip.contentTypes !== undefined) {
    it.skip(`fingerprints every content type; refuses raw multipart (skipped: ${skip.contentTypes})`, bodyless);
  } else {
    it('fingerprints text, form, +json and untyped bodies: the same body replays, another is 409', async () => {
      const cases: ReadonlyArray<[type: string | null, first: string | Uint8Array, same: string | Uint8Array, other: string | Uint8Array]> = [
        ['text/plain', 'pay 10 EUR', 'pay 10 EUR', 'pay 99 EUR'],
        ['text/plain; charset=utf-8', 'caf\u00e9', 'caf\u00e9', 'cafe'],
        ['application/x-www-form-urlencoded', 'amount=10&currency=EUR', 'amount=10&currency=EUR', 'amount=99&currency=EUR'],
        ['application/merchant+json', '{"amount":10,"currency":"EUR"}', '{"currency":"EUR","amount":10}', '{"amount":99,"currency":"EUR"}'],
        [null, new Uint8Array([1, 2, 3, 250]), new Uint8Array([1, 2, 3, 250]), new Uint8Array([1, 2, 3, 251])],
        ['application/octet-stream', new Uint8Array([0, 255, 7]), new Uint8Array([0, 255, 7]), new Uint8Array([0, 255, 8])],
      ];
      for (const [contentType, first, same, other] of cases) {
        const key = newKey();
        const probe = newProbe();
        const label = contentType ?? '(no content type)';
        const fresh = await echo(key, probe, { rawBody: first, contentType });
        expect({ label, status: fresh.status }).toEqual({ label, status: 201 });
        const replay = await echo(key, probe, { rawBody: same, contentType });
        expect({ label, replayed: replay.header('idempotent-replayed') }).toEqual({ label, replayed: 'true' });
        expect(replay.text).toBe(fresh.text);
        expectProblem(await echo(key, probe, { rawBody: other, contentType }), 409, 'fingerprint_mismatch');
        expect({ label, runs: state.count(probe) }).toEqual({ label, runs: 1 });
      }
    });

    it('answers raw multipart (a random boundary per retry) with 415 and claims nothing', async () => {
      const key = newKey();
      const probe = newProbe();
      const boundary = `----suite${probe}`;
      const rawBody = `--${boundary}\r\nContent-Disposition: form-data; name="amount"\r\n\r\n10\r\n--${boundary}--\r\n`;
      const result = await echo(key, probe, { rawBody, contentType: `multipart/form-data; boundary=${boundary}` });
      expectProblem(result, 415, 'unsupported_media_type');
      expectNoStackTrace(result);
      expect(await state.stores.main.get({ key, scope: 'alice' })).toBeNull();
      expect(state.count(probe)).toBe(0);
    });
  }

  if (skip.maxRequestBytes === undefined) {
    it('answers a body over maxRequestBytes with 413 body_too_large and claims nothing', async () => {
      const key = newKey();
      const probe = newProbe();
      const result = await call('/capped', { key, body: { probe, padding: 'x'.repeat(4096) } });
      expectProblem(result, 413, 'body_too_large');
      expectNoStackTrace(result);
      expect(await state.stores.main.get({ key, scope: 'alice' })).toBeNull();
      expect(state.count(probe)).toBe(0);
      expect((await call('/capped', { key, body: { probe } })).status).toBe(201); // the key is still free
    });
  } else {
    it.skip(`answers a body over maxRequestBytes with 413 body_too_large (skipped: ${skip.maxRequestBytes})`, bodyless);
  }
}
