// Reconciliation (spec §5): a worker SIGKILLed between the provider call and the local completion
// leaves a PROCESSING orphan over a real charge; reconcile() asks Stripe (real SDK, fake server)
// under the local key, completes the record with the provider's result (a fenced takeover), and
// the client's retry replays it — never a second charge. Also: an orphan the provider never saw is
// released; two charges for one intent raise `idempotency.split_brain` and an alert log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import type { LogFields, Logger } from '../../src/core/logger.js';
import { noopMetrics, type MetricsSink } from '../../src/core/metrics.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { reconcile, SPLIT_BRAIN_METRIC } from '../../src/payments/reconcile.js';
import { createStripePayments } from '../../src/payments/stripe.js';
import { stripeLookup } from '../../src/payments/stripe-lookup.js';
import { spawnWorker } from '../stores/workers/spawn-worker.js';
import type { ChargeConfig, ChargeMessage } from './support/charge-worker.js';
import { startFakeProvider, type FakeProvider } from './support/fake-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-reconcile-'));
let fake: FakeProvider;
let stripe: Stripe;
beforeAll(async () => {
  fake = await startFakeProvider();
  stripe = new Stripe('sk_test_fake', { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function recorders() {
  const counts = new Map<string, number>();
  const errors: { fields: LogFields; message: string }[] = [];
  const metrics: MetricsSink = { ...noopMetrics, increment: (name, _labels, by = 1) => void counts.set(name, (counts.get(name) ?? 0) + by) };
  const logger: Logger = { debug() {}, info() {}, warn() {}, error: (fields, message) => void errors.push({ fields, message }) };
  return { metrics, logger, count: (name: string) => counts.get(name) ?? 0, errors };
}

describe('reconcile with Stripe', () => {
  it('a worker killed after the charge and before completion: reconciled to COMPLETED with the charge; the retry replays it, one charge', async () => {
    const config: ChargeConfig = {
      filename: join(dir, 'crash.db'),
      port: fake.port,
      key: 'order-crash-1',
      scope: 'user_42',
      fingerprint: fingerprintFields([4200, 'eur']),
      leaseMs: 300,
      amount: 4200,
    };
    const worker = spawnWorker<ChargeMessage>('../../payments/support/charge-worker.ts', config);
    const charged = await worker.next('charged', 30_000);
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
    const chargesAfterCrash = fake.charges.filter((c) => c.metadata.idempotency_key === config.key);
    expect(chargesAfterCrash.map((c) => c.id)).toEqual([charged.id]);

    const store = createSqliteStore({ filename: config.filename });
    const idempotency = createIdempotency({ store, leaseMs: 1_000 });
    const id = { key: config.key, scope: config.scope };
    expect((await store.get(id))?.status).toBe('PROCESSING');
    await sleep(400); // the dead worker's lease ends

    const report = await reconcile({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe), olderThanMs: 0 });
    expect(report).toMatchObject({ examined: 1, completed: 1, released: 0, splitBrain: 0, errors: 0 });
    const record = await store.get(id);
    expect(record?.status).toBe('COMPLETED');

    const createsBefore = fake.requests.filter((r) => r.method === 'POST').length;
    const retry = await createStripePayments({ stripe, idempotency }).createPaymentIntent({ ...id, fingerprint: config.fingerprint }, { amount: 4200, currency: 'eur' });
    expect(retry.replayed).toBe(true);
    expect(retry.payment).toMatchObject({ id: charged.id, status: 'succeeded', amount: 4200, reconciled: true });
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(createsBefore);
    expect(fake.charges.filter((c) => c.metadata.idempotency_key === config.key)).toHaveLength(1);
    // A second pass finds nothing left to do.
    expect(await reconcile({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe), olderThanMs: 0 })).toMatchObject({ examined: 0 });
    await store.close();
  });

  it('an orphan the provider never saw is released: the retry charges once', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, leaseMs: 50 });
    const request = { key: 'order-never-sent', scope: 'user_7', fingerprint: fingerprintFields([500, 'eur']) };
    // Abandoned claim: the worker died before calling Stripe.
    await store.claim({ ...request, owner: null, leaseMs: 50, ttlMs: 86_400_000, replaceExpired: true });
    await sleep(80);
    const report = await reconcile({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe), olderThanMs: 0 });
    expect(report).toMatchObject({ examined: 1, released: 1, completed: 0 });
    expect(await store.get(request)).toBeNull();
    const retry = await createStripePayments({ stripe, idempotency }).createPaymentIntent(request, { amount: 500, currency: 'eur' });
    expect(retry).toMatchObject({ replayed: false, payment: { providerReplayed: false } });
    expect(fake.charges.filter((c) => c.metadata.idempotency_key === request.key)).toHaveLength(1);
  });

  it('two charges for one intent: split brain metric and alert, the record stays PROCESSING for a human', async () => {
    const { metrics, logger, count, errors } = recorders();
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, leaseMs: 50, metrics, logger });
    const request = { key: 'order-split', scope: 'user_8', fingerprint: fingerprintFields([700, 'eur']) };
    await store.claim({ ...request, owner: null, leaseMs: 50, ttlMs: 86_400_000, replaceExpired: true });
    const metadata = { idempotency_key: request.key, idempotency_scope: request.scope };
    fake.addStripeCharge({ amount: 700, currency: 'eur', metadata });
    fake.addStripeCharge({ amount: 700, currency: 'eur', metadata });
    await sleep(80);
    const report = await reconcile({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe), olderThanMs: 0 });
    expect(report).toMatchObject({ examined: 1, splitBrain: 1, completed: 0, released: 0 });
    expect(count(SPLIT_BRAIN_METRIC)).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/split brain/);
    expect(errors[0]!.fields.key).not.toContain(request.key); // the key leaves only as a hash
    expect((await store.get(request))?.status).toBe('PROCESSING');
  });

  it('a retry that takes the orphan over while the provider is asked wins; reconcile skips it and writes nothing', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, leaseMs: 5_000 });
    const request = { key: 'order-raced', scope: 'user_9', fingerprint: fingerprintFields([900, 'eur']) };
    await store.claim({ ...request, owner: null, leaseMs: 20, ttlMs: 86_400_000, replaceExpired: true });
    await sleep(40);
    let retryVersion = -1;
    const report = await reconcile({
      idempotency,
      provider: 'stripe',
      olderThanMs: 0,
      lookup: async () => {
        // The client's retry reclaims the orphan between listStuck and reconcile's own takeover.
        const retried = await store.claim({ ...request, owner: null, leaseMs: 5_000, ttlMs: 86_400_000, replaceExpired: true });
        if (retried.outcome === 'claimed') retryVersion = retried.lockVersion;
        return { outcome: 'found', result: { id: 'pi_from_lookup' } };
      },
    });
    expect(report).toMatchObject({ examined: 1, skipped: 1, completed: 0 });
    const record = await store.get(request);
    expect(record).toMatchObject({ status: 'PROCESSING', lockVersion: retryVersion });
    expect(retryVersion).toBeGreaterThan(0);
  });
});
