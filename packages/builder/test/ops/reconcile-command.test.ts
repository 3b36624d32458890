/**
 * `idempotency-builder reconcile --provider stripe` as an operator runs it after a crash: one
 * orphan stands for a charge Stripe holds (the real SDK, pointed at the tests' fake Stripe),
 * another for a charge that never happened. The first is completed with the provider's result,
 * the second released; nothing is charged again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEncryptionCodec, createIdempotency, fingerprintFields } from '@idempotency-builder/runtime';
import { STRIPE_METADATA_KEY, STRIPE_METADATA_SCOPE, stripeIdempotencyKey } from '@idempotency-builder/runtime/payments';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli.js';
import { startFakeProvider, type FakeProvider } from '../../../runtime/test/payments/support/fake-provider.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dir = mkdtempSync(join(tmpdir(), 'reconcile-cli-'));
let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reconcile command', () => {
  it('completes the orphan Stripe charged (encrypted like the service), releases the one it never saw, charges nothing', async () => {
    const filename = join(dir, 'idempotency.db');
    const key = Buffer.alloc(32, 7);
    const codec = createEncryptionCodec({ keys: { k1: key }, activeKeyId: 'k1' });
    const store = createSqliteStore({ filename });
    const engine = createIdempotency({ store, codec, leaseMs: 1_000 });
    const base = { fingerprint: fingerprintFields([4200, 'eur']), owner: null, ttlMs: 86_400_000, replaceExpired: true };
    // Two workers claimed and died: one after Stripe charged, one before.
    await store.claim({ ...base, key: 'order-1', scope: 'user_42', leaseMs: 50 });
    await store.claim({ ...base, key: 'order-2', scope: 'user_42', leaseMs: 50 });
    const stripe = new Stripe('sk_test_fake', { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });
    await stripe.paymentIntents.create(
      { amount: 4200, currency: 'eur', metadata: { [STRIPE_METADATA_KEY]: 'order-1', [STRIPE_METADATA_SCOPE]: 'user_42' } },
      { idempotencyKey: stripeIdempotencyKey({ key: 'order-1', scope: 'user_42' }) },
    );
    const creates = fake.requests.filter((r) => r.method === 'POST').length;
    await sleep(100);

    vi.stubEnv('STRIPE_SECRET_KEY', 'sk_test_fake');
    vi.stubEnv('IDEMPOTENCY_ENCRYPTION_KEY', key.toString('base64'));
    try {
      const run = await cli('reconcile', '--provider', 'stripe', '--store', `sqlite:${filename}`, '--older-than', '0', '--stripe-api', `http://127.0.0.1:${fake.port}`, '--json');
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ examined: 2, completed: 1, released: 1, splitBrain: 0 });
    } finally {
      vi.unstubAllEnvs();
    }
    expect((await store.get({ key: 'order-1', scope: 'user_42' }))?.status).toBe('COMPLETED');
    expect(await store.get({ key: 'order-2', scope: 'user_42' })).toBeNull();
    // The service (same codec) replays the reconciled charge; nothing new reached Stripe.
    const replay = await engine.run({ key: 'order-1', scope: 'user_42', fingerprint: base.fingerprint }, async () => 'charged again');
    expect(replay.replayed).toBe(true);
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(creates);
    await store.close();
  }, 30_000);

  it('refuses what it cannot do, in one line, exit code 2', async () => {
    const adyen = await cli('reconcile', '--provider', 'adyen', '--store', 'sqlite:/tmp/none.db');
    expect(adyen.code).toBe(2);
    expect(adyen.stderr).toMatch(/call reconcile\(\)/);
    vi.stubEnv('STRIPE_SECRET_KEY', '');
    vi.stubEnv('STRIPE_API_KEY', '');
    try {
      const nokey = await cli('reconcile', '--provider', 'stripe', '--store', 'sqlite:/tmp/none.db');
      expect(nokey.stderr).toMatch(/STRIPE_SECRET_KEY/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
