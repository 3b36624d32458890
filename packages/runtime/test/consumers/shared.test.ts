/** The broker-neutral core: the outcome → ack | requeue | dead-letter table, keys, options, processMessage, mapBatch. */
import { describe, expect, it } from 'vitest';
import {
  ExpiredKeyRejectedError, FingerprintMismatchError, InProgressError, InvalidOptionsError, LeaseLostError,
  ReplayedFailureError, StoreUnavailableError, createIdempotency,
} from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import {
  decideOutcome, mapBatch, messageKey, MissingMessageIdError, payloadFingerprint, processMessage, resolveConsumerOptions, type MessageView,
} from '../../src/consumers/shared/index.js';
import { PoisonError, sleep } from './support/engine.js';

const classify = (error: unknown) => (error instanceof PoisonError ? 'permanent' : 'transient') as 'permanent' | 'transient';
const delays = { minRequeueDelayMs: 100, maxRequeueDelayMs: 1_000, transientDelayMs: 500 };
const engineError = (error: unknown) => decideOutcome({ ok: false, error, fromHandler: false, leaseLost: false }, classify, delays);

describe('decideOutcome', () => {
  it('acks stored and replayed results', () => {
    expect(decideOutcome({ ok: true, replayed: false }, classify, delays)).toEqual({ kind: 'ack', replayed: false });
    expect(decideOutcome({ ok: true, replayed: true }, classify, delays)).toEqual({ kind: 'ack', replayed: true });
  });

  it('follows the engine classifier for handler errors, and requeues when the lease was lost', () => {
    const poison = new PoisonError('x');
    expect(decideOutcome({ ok: false, error: poison, fromHandler: true, leaseLost: false }, classify, delays)).toMatchObject({ kind: 'dead-letter', reason: 'permanent_failure' });
    expect(decideOutcome({ ok: false, error: new Error('blip'), fromHandler: true, leaseLost: false }, classify, delays)).toMatchObject({ kind: 'requeue', reason: 'transient_failure', delayMs: 500 });
    expect(decideOutcome({ ok: false, error: poison, fromHandler: true, leaseLost: true }, classify, delays)).toMatchObject({ kind: 'requeue', reason: 'lease_lost' });
  });

  it('requeues in-progress duplicates after their retry-after, clamped', () => {
    expect(engineError(new InProgressError(300))).toMatchObject({ kind: 'requeue', reason: 'in_progress', delayMs: 300 });
    expect(engineError(new InProgressError(5))).toMatchObject({ delayMs: 100 });
    expect(engineError(new InProgressError(60_000))).toMatchObject({ delayMs: 1_000 });
  });

  it('dead-letters replayed failures, fingerprint conflicts and unusable messages; requeues store trouble', () => {
    expect(engineError(new ReplayedFailureError({ name: 'PoisonError', message: 'x' }))).toMatchObject({ kind: 'dead-letter', reason: 'replayed_failure' });
    expect(engineError(new FingerprintMismatchError())).toMatchObject({ kind: 'dead-letter', reason: 'fingerprint_mismatch' });
    expect(engineError(new MissingMessageIdError('header x'))).toMatchObject({ kind: 'dead-letter', reason: 'invalid_message' });
    expect(engineError(new ExpiredKeyRejectedError())).toMatchObject({ kind: 'dead-letter', reason: 'invalid_message' });
    expect(engineError(new StoreUnavailableError('claim', new Error('down')))).toMatchObject({ kind: 'requeue', reason: 'store_unavailable' });
    expect(engineError(new LeaseLostError())).toMatchObject({ kind: 'requeue', reason: 'lease_lost' });
    // A non-handler error nobody classified: not stored, so never acked.
    expect(engineError(new TypeError('?'))).toMatchObject({ kind: 'requeue' });
  });
});

describe('messageKey', () => {
  const payload = '{"b":1,"a":2}';
  it('uses a valid producer id as is and hashes any other id stably', () => {
    expect(messageKey({ messageId: 'order-42:v1', payload, keyFrom: 'message-id', where: 'x' })).toBe('order-42:v1');
    const odd = messageKey({ messageId: 'orders/42 eu', payload, keyFrom: 'message-id', where: 'x' });
    expect(odd).toMatch(/^h:[0-9a-f]{64}$/);
    expect(messageKey({ messageId: 'orders/42 eu', payload: 'other', keyFrom: 'message-id', where: 'x' })).toBe(odd);
  });

  it('refuses a missing id unless the payload fallback is opted in; the fallback ignores key order and excluded fields', () => {
    expect(() => messageKey({ messageId: undefined, payload, keyFrom: 'message-id', where: 'header X' })).toThrow(/header X/);
    const a = messageKey({ messageId: '', payload, keyFrom: 'message-id-or-payload', where: 'x' });
    expect(a).toBe(messageKey({ messageId: undefined, payload: '{"a":2,"timestamp":"now","b":1}', keyFrom: 'message-id-or-payload', where: 'x' }));
    expect(messageKey({ messageId: 'id-1', payload, keyFrom: 'payload', where: 'x' })).toBe(a);
    expect(payloadFingerprint(new Uint8Array([0xff, 0xfe]))).toMatch(/^[0-9a-f]{64}$/); // not UTF-8: raw bytes
  });
});

describe('resolveConsumerOptions', () => {
  const idempotency = createIdempotency({ store: createMemoryStore() });
  const handler = () => {};
  it.each([
    [{ idempotency: {} as never, handler }, /idempotency/],
    [{ idempotency, handler: 1 as never }, /handler/],
    [{ idempotency, handler, keyFrom: 'offset' as never }, /keyFrom/],
    [{ idempotency, handler, scope: 'has space' }, /scope/],
    [{ idempotency, handler, minRequeueDelayMs: 10, maxRequeueDelayMs: 5 }, /maxRequeueDelayMs/],
    [{ idempotency, handler, transientDelayMs: -1 }, /transientDelayMs/],
  ])('rejects bad options at creation (%#)', (options, message) => {
    expect(() => resolveConsumerOptions(options, 'queue')).toThrow(InvalidOptionsError);
    expect(() => resolveConsumerOptions(options, 'queue')).toThrow(message);
  });
});

describe('processMessage', () => {
  type M = { id?: string; body: string };
  const view: MessageView<M> = { messageId: (m) => m.id, payload: (m) => m.body, where: 'id' };

  it('tells the handler’s own permanent error (stored, dead-lettered) from a replay of it', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore(), isPermanent: (e) => e instanceof PoisonError });
    let runs = 0;
    const options = resolveConsumerOptions<M, void>({ idempotency, handler: () => (runs++, Promise.reject(new PoisonError('no'))) }, 'q');
    expect((await processMessage(options, view, { id: 'a', body: '{}' })).decision).toMatchObject({ kind: 'dead-letter', reason: 'permanent_failure' });
    expect((await processMessage(options, view, { id: 'a', body: '{}' })).decision).toMatchObject({ kind: 'dead-letter', reason: 'replayed_failure' });
    expect(runs).toBe(1);
  });

  it('dead-letters the same id with another payload as a fingerprint conflict, and hands key and scope to the handler', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    const seen: string[] = [];
    const options = resolveConsumerOptions<M, string>({ idempotency, handler: (_m, c) => (seen.push(`${c.scope}/${c.key}`), 'ok') }, 'orders');
    expect(await processMessage(options, view, { id: 'a', body: '{"n":1}' })).toMatchObject({ decision: { kind: 'ack', replayed: false }, value: 'ok', key: 'a' });
    expect((await processMessage(options, view, { id: 'a', body: '{"n":2}' })).decision).toMatchObject({ kind: 'dead-letter', reason: 'fingerprint_mismatch' });
    expect(seen).toEqual(['orders/a']);
  });
});

describe('mapBatch', () => {
  it('keeps input order and never runs more than `concurrency` at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapBatch([30, 10, 20, 5, 1], async (ms, i) => {
      peak = Math.max(peak, ++running);
      await sleep(ms);
      running--;
      return i;
    }, 2);
    expect(out).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    await expect(mapBatch([1], async () => 1, 0)).rejects.toThrow(InvalidOptionsError);
  });
});
