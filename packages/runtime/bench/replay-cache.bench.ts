/**
 * Replays per second with and without the in-process replay cache, on the memory and SQLite
 * stores, in the same run: the ratio is what skipping the store round trip is worth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createIdempotency, fingerprintFields } from '@idempotency-builder/runtime';
import type { IdempotencyStore } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { compare, type BenchSuite } from './harness.js';

const fingerprint = fingerprintFields([4999, 'EUR', 'acct_xyz']);
const KEYS = 1_000;
const payload = { id: 'pay_1', amount: 4999, currency: 'EUR', note: 'x'.repeat(200) };

/** Completes KEYS keys, then replays them round-robin, through an engine without and with the cache. */
async function measure(store: IdempotencyStore) {
  const plain = createIdempotency({ store, heartbeat: false });
  const cached = createIdempotency({ store, heartbeat: false, replayCache: { maxEntries: KEYS * 2, ttlMs: 60_000 } });
  for (let i = 0; i < KEYS; i++) await plain.run({ key: `k${i}`, scope: 'u', fingerprint }, () => payload);
  let n = 0;
  const replay = (engine: typeof plain) => async () => {
    const { replayed } = await engine.run({ key: `k${n++ % KEYS}`, scope: 'u', fingerprint }, () => payload);
    if (!replayed) throw new Error('expected a replay');
  };
  return compare(
    [
      { label: 'replay through the store (no cache, baseline)', fn: replay(plain) },
      { label: 'replay with replayCache', fn: replay(cached), note: `${KEYS} keys round-robin, all cached after the first pass` },
    ],
    { time: 1_000, iterations: 8 },
  );
}

const suite: BenchSuite = {
  name: 'Replay cache: replays per second with and without it',
  async run(report) {
    report.table('memory store', await measure(createMemoryStore()));
    try {
      new Database(':memory:').close();
    } catch (error) {
      report.line(`SQLite skipped: better-sqlite3 cannot load: ${String(error)}`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'idem-replay-cache-bench-'));
    const store = createSqliteStore({ filename: join(dir, 'replay.db') });
    try {
      await store.ready;
      report.table('SQLite store (file, WAL, synchronous FULL)', await measure(store));
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
