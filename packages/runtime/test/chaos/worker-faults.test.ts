/**
 * Workers killed (SIGKILL) and frozen (SIGSTOP) mid-action, on a shared SQLite file. Invariants:
 * one counted side effect per intent; the key is recorded COMPLETED by whoever finished it and
 * is never left PROCESSING past its lease; a frozen worker that wakes up is fenced out (its
 * signal aborts because no extension succeeded for a whole lease) and writes nothing.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { spawnWorker, type Worker } from '../stores/workers/spawn-worker.js';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import { effectsByKey } from './support/intents.js';
import type { IntentWorkerMessage } from './support/intent-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-workers-'));
const filename = join(dir, 'faults.db');
const LEASE_MS = 300;
const workers: Worker<IntentWorkerMessage>[] = [];
const store = createSqliteStore({ filename, busyTimeoutMs: 10_000 });

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function startWorker(key: string, effectsFile: string, holdMs: number) {
  const worker = spawnWorker<IntentWorkerMessage>('../../chaos/support/intent-worker.ts', { filename, effectsFile, key, leaseMs: LEASE_MS, holdMs });
  workers.push(worker);
  return worker;
}

describe('workers killed or frozen mid-action (SQLite)', () => {
  it('SIGKILL mid-action: the retry reclaims after the lease and the effect happens once', async () => {
    await store.ready;
    const effectsFile = join(dir, 'kill.log');
    writeFileSync(effectsFile, '');
    const worker = startWorker('killed', effectsFile, 60_000);
    const started = await worker.next<Extract<IntentWorkerMessage, { type: 'started' }>>('started', 30_000);
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
    // The killed worker's key is PROCESSING until its lease is over; then the retry reclaims it.
    const orphan = await store.get({ key: 'killed', scope: 'chaos' });
    expect(orphan).toMatchObject({ status: 'PROCESSING', lockVersion: started.lockVersion });
    const idempotency = createIdempotency({ store, leaseMs: LEASE_MS, ttlMs: 60_000 });
    const retried = await idempotency.run(
      { key: 'killed', scope: 'chaos', fingerprint: fingerprintFields(['chaos', 'killed']) },
      async ({ reclaimed }) => {
        appendFileSync(effectsFile, 'killed\n');
        return reclaimed;
      },
      { waitMs: 3 * LEASE_MS },
    );
    expect(retried).toEqual({ value: true, replayed: false });
    expect(effectsByKey(effectsFile).get('killed')).toBe(1); // the killed worker never reached its effect
    expect(await store.get({ key: 'killed', scope: 'chaos' })).toMatchObject({ status: 'COMPLETED', lockVersion: started.lockVersion + 1 });
  }, 60_000);

  it('SIGSTOP mid-action: another process takes over; the frozen one wakes fenced out and writes nothing', async () => {
    const effectsFile = join(dir, 'stop.log');
    writeFileSync(effectsFile, '');
    const worker = startWorker('frozen', effectsFile, 500);
    const started = await worker.next<Extract<IntentWorkerMessage, { type: 'started' }>>('started', 30_000);
    worker.child.kill('SIGSTOP');
    const idempotency = createIdempotency({ store, leaseMs: LEASE_MS, ttlMs: 60_000 });
    const takeover = await idempotency.run(
      { key: 'frozen', scope: 'chaos', fingerprint: fingerprintFields(['chaos', 'frozen']) },
      async ({ reclaimed, lockVersion }) => {
        appendFileSync(effectsFile, 'frozen\n');
        return { reclaimed, lockVersion };
      },
      { waitMs: 3 * LEASE_MS },
    );
    expect(takeover.value).toEqual({ reclaimed: true, lockVersion: started.lockVersion + 1 });
    worker.child.kill('SIGCONT');
    const done = await worker.next<Extract<IntentWorkerMessage, { type: 'done' }>>('done', 30_000);
    expect(done.outcome).toBe('lease_lost');
    expect(effectsByKey(effectsFile).get('frozen')).toBe(1);
    const record = await store.get({ key: 'frozen', scope: 'chaos' });
    expect(record).toMatchObject({ status: 'COMPLETED', lockVersion: started.lockVersion + 1 });
  }, 60_000);
});
