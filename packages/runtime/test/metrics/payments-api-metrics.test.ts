/**
 * examples/payments-api's `GET /metrics` (prom-client, the runtime's sink): after a first
 * payment, a replay, a mismatch, concurrent duplicates and a stalled worker's reclaimed key, the
 * scrape shows the spec's seven metrics with their Prometheus types, labels and counts. In
 * process on a SQLite file (the example's default store).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency, startCleanup, type CleanupJob } from '../../src/index.js';
import { scopeBucket } from '../../src/core/metrics.js';
import { createPaymentsApp } from '../../../../examples/payments-api/app.js';
import type { Ledger } from '../../../../examples/payments-api/ledger.js';
import { createPaymentsMetrics } from '../../../../examples/payments-api/metrics.js';
import { openStorage, type Storage } from '../../../../examples/payments-api/storage.js';

const LEASE_MS = 300;

/** The example's ledger, with a gate that stalls the next insert (a worker that hangs mid-payment). */
function stallableLedger(inner: Ledger) {
  let stall: Promise<void> | undefined;
  let inserts = 0;
  const ledger: Ledger = {
    async insert(payment) {
      inserts++;
      if (stall) {
        const gate = stall;
        stall = undefined;
        await gate;
      }
      return inner.insert(payment);
    },
    listFor: (userId) => inner.listFor(userId),
    close: () => inner.close(),
  };
  return { ledger, inserts: () => inserts, stallNext: (gate: Promise<void>) => (stall = gate) };
}

describe('examples/payments-api: GET /metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payments-metrics-'));
  let storage: Storage;
  let server: Server;
  let cleanup: CleanupJob;
  let base = '';
  let ledger: ReturnType<typeof stallableLedger>;

  beforeAll(async () => {
    storage = await openStorage({ SQLITE_FILE: join(dir, 'payments.db') });
    const metrics = createPaymentsMetrics();
    // Heartbeat off and a short lease: a stalled worker's key is reclaimed within the test.
    const idempotency = createIdempotency({ store: storage.store, metrics: metrics.sink, leaseMs: LEASE_MS, heartbeat: false });
    cleanup = startCleanup({ store: storage.store, intervalMs: 60_000, metrics: metrics.sink });
    ledger = stallableLedger(storage.ledger);
    const app = createPaymentsApp({ idempotency, ledger: ledger.ledger, metrics: metrics.exposition });
    server = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await cleanup?.stop();
    await new Promise((resolve) => server?.close(resolve));
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pay = (key: string, amount: number) =>
    fetch(`${base}/payments`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok_alice', 'idempotency-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ amount, currency: 'EUR', recipient_id: 'acct_42' }),
    });

  it('exposes the seven metrics with their types, labels and counts', async () => {
    const first = await pay(`order-${randomUUID()}`, 4999);
    expect(first.status).toBe(201);
    const key = `order-${randomUUID()}`;
    expect((await pay(key, 100)).status).toBe(201);
    const replay = await pay(key, 100);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await pay(key, 101)).status).toBe(409); // fingerprint mismatch

    const burstKey = `order-${randomUUID()}`;
    const burst = await Promise.all(Array.from({ length: 10 }, () => pay(burstKey, 250)));
    expect(burst.filter((response) => response.status === 201 && !response.headers.get('idempotent-replayed'))).toHaveLength(1);

    // A worker stalls mid-payment; its lease (no heartbeat) lapses; the client's retry reclaims.
    let unstall!: () => void;
    ledger.stallNext(new Promise<void>((resolve) => (unstall = resolve)));
    const stalledKey = `order-${randomUUID()}`;
    const stalled = pay(stalledKey, 700);
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));
    const retry = await pay(stalledKey, 700);
    expect(retry.status).toBe(201);
    unstall();
    await (await stalled).arrayBuffer();
    await cleanup.runOnce(); // the store_size gauge

    const scrape = await fetch(`${base}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    const value = (series: string) => {
      const line = text.split('\n').find((row) => row.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };

    for (const [name, type] of [
      ['idempotency_duplicates_blocked_total', 'counter'],
      ['idempotency_lock_timeouts_total', 'counter'],
      ['idempotency_fingerprint_mismatches_total', 'counter'],
      ['idempotency_store_size', 'gauge'],
      ['idempotency_processing_duration_ms', 'histogram'],
      ['idempotency_keys_created_per_user_total', 'counter'],
      ['idempotency_orphan_reclaims_total', 'counter'],
    ] as const) {
      expect(text, name).toContain(`# TYPE ${name} ${type}`);
    }
    expect(value('idempotency_fingerprint_mismatches_total')).toBe(1);
    expect(value('idempotency_orphan_reclaims_total')).toBe(1);
    expect(value('idempotency_lock_timeouts_total')).toBeGreaterThanOrEqual(1);
    // The replay, plus the burst's duplicates (those answered 409 in progress or the replay).
    expect(value('idempotency_duplicates_blocked_total{status="completed"}')! + (value('idempotency_duplicates_blocked_total{status="processing"}') ?? 0)).toBe(10);
    // Four fresh keys, all alice's: one scope bucket, never her id.
    expect(value(`idempotency_keys_created_per_user_total{scope_bucket="${scopeBucket('user_alice')}"}`)).toBe(4);
    expect(text).not.toContain('user_alice');
    expect(value('idempotency_store_size')).toBe(4);
    expect(value('idempotency_processing_duration_ms_count{outcome="ok"}')).toBeGreaterThanOrEqual(4);
    expect(ledger.inserts()).toBe(5); // the stalled worker's insert ran late, after the retry's
  });
});
