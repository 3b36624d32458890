// Issue 2's crash test, on the SQLite store through the engine.
//
// What it proves: a worker process that claimed a key and was killed with SIGKILL mid-action
// (no release, no finally) leaves a PROCESSING record that
//   1. blocks duplicates while its lease lasts — the action never runs CONCURRENTLY with the
//      dead worker's run (a retry right after the kill gets `in_progress`, and the retry that
//      does run starts, on the store clock, only after the dead worker's last lease ended);
//   2. is reclaimed by a retry once the lease is over: the retry runs, is counted as an orphan
//      reclaim (`idempotency.orphan_reclaims` = 1), holds the next lockVersion and completes;
//   3. ends with exactly ONE stored result — the retry's — which later duplicates replay, while a
//      late write carrying the dead worker's token (v1) is refused.
// What it does not prove, because it is not true: that the action runs once. The dead worker's
// effect AND the retry's effect both happened (2 effects counted): after a crash the action may
// run again — the at-least-once window the design documents (docs/stores/sqlite.md). Effects that
// must not repeat carry a key derived from the idempotency key, or run in transactional mode.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { InProgressError } from '../../src/core/errors.js';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import { METRICS, noopMetrics, type MetricName, type MetricsSink } from '../../src/core/metrics.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { CrashConfig, CrashMessage } from './workers/crash-worker.js';
import { spawnWorker } from './workers/spawn-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sqlite-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A metrics sink that only counts increments, by name. */
function countingMetrics(): MetricsSink & { count(name: MetricName): number } {
  const counts = new Map<MetricName, number>();
  return {
    ...noopMetrics,
    increment: (name, _labels, by = 1) => void counts.set(name, (counts.get(name) ?? 0) + by),
    count: (name) => counts.get(name) ?? 0,
  };
}

it('a worker killed with SIGKILL mid-action: its lease blocks duplicates, then a retry reclaims once and completes', async () => {
  const config: CrashConfig = {
    filename: join(dir, 'crash.db'),
    effectsFile: join(dir, 'effects.log'),
    key: 'usr_42_charge_order-7',
    scope: 'user-42',
    fingerprint: fingerprintFields([4200, 'EUR', 'merchant-9']),
    leaseMs: 1_000,
  };
  writeFileSync(config.effectsFile, '');
  const id = { key: config.key, scope: config.scope };
  const request = { ...id, fingerprint: config.fingerprint };

  const worker = spawnWorker<CrashMessage>('crash-worker.ts', config);
  const started = await worker.next('started', 30_000);
  expect(started).toMatchObject({ reclaimed: false });
  const v1 = started.lockVersion;

  const store = createSqliteStore({ filename: config.filename });
  const metrics = countingMetrics();
  const idempotency = createIdempotency({ store, leaseMs: config.leaseMs, ttlMs: 60_000, metrics });

  // Alive past its first lease: only the child's heartbeat (every leaseMs/3) can keep it held.
  await sleep(config.leaseMs * 1.5);
  const held = await store.get(id);
  expect(held).toMatchObject({ status: 'PROCESSING', lockVersion: v1 });
  expect(held!.lockedUntil!).toBeGreaterThan(await store.now());
  // Kill right after a heartbeat lands, so a whole lease is left to observe (even on a loaded machine).
  let seen = held!.lockedUntil!;
  for (const deadline = Date.now() + config.leaseMs; ; await sleep(10)) {
    const lockedUntil = (await store.get(id))!.lockedUntil!;
    if (lockedUntil > seen) break;
    expect(Date.now(), 'no heartbeat within a lease').toBeLessThan(deadline);
    seen = lockedUntil;
  }
  worker.child.kill('SIGKILL');
  expect(await worker.exited).toMatchObject({ signal: 'SIGKILL' });
  const orphan = await store.get(id);
  expect(orphan).toMatchObject({ status: 'PROCESSING', lockVersion: v1 }); // nothing cleaned up after the kill

  let retryRuns = 0;
  const action = async () => {
    retryRuns++;
    appendFileSync(config.effectsFile, `retry ${process.pid}\n`);
    return { charged: 4200, startedAt: await store.now() };
  };

  // Right after the crash the dead worker's lease still holds: no second, concurrent run.
  const early = await idempotency.run(request, action).catch((error: unknown) => error);
  expect(early).toBeInstanceOf(InProgressError);
  expect(retryRuns).toBe(0);

  // A retry that waits (as a client honouring Retry-After would) reclaims once the lease is over.
  const retried = await idempotency.run(request, action, { waitMs: config.leaseMs * 3 });
  expect(retried.replayed).toBe(false);
  expect(retryRuns).toBe(1);
  expect(retried.value.startedAt).toBeGreaterThanOrEqual(orphan!.lockedUntil!); // never concurrent, store clock
  expect(metrics.count(METRICS.orphanReclaims)).toBe(1);

  const record = await store.get(id);
  expect(record).toMatchObject({ status: 'COMPLETED', lockVersion: v1 + 1, lockedUntil: null });
  expect(JSON.parse(new TextDecoder().decode(record!.response!.body))).toEqual(retried.value);

  // The dead worker's token is fenced out; duplicates replay the one stored result.
  const late = { ...id, lockVersion: v1, ttlMs: 60_000, response: { statusCode: null, headers: null, body: new Uint8Array([1]), encoding: 'json' } };
  expect(await store.complete(late)).toBe('lost');
  const duplicate = await idempotency.run(request, action);
  expect(duplicate).toEqual({ value: retried.value, replayed: true });
  expect(retryRuns).toBe(1);
  expect(metrics.count(METRICS.orphanReclaims)).toBe(1);

  // The at-least-once window, counted: the dead worker's effect and the retry's — two, not one.
  const effects = readFileSync(config.effectsFile, 'utf8').trim().split('\n');
  expect(effects).toEqual([`crashed-worker ${started.pid}`, `retry ${process.pid}`]);
  await store.close();
}, 60_000);
