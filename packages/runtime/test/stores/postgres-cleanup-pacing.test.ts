// The PostgreSQL cleanup job's pacing (pauseRatio), over a scripted store: no server needed.
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { DEFAULT_PAUSE_RATIO, startPostgresCleanup } from '../../src/stores/postgres/index.js';

/** A store whose batches take `batchMs` each and that holds `backlog` expired rows; it records when each batch started and ended. */
function scriptedStore(backlog: number, batchMs: number) {
  const batches: { start: number; end: number }[] = [];
  let left = backlog;
  return {
    batches,
    store: {
      table: '"public"."idempotency_store"',
      size: async () => left,
      async purgeExpired(batch: number) {
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, batchMs));
        const purged = Math.min(batch, left);
        left -= purged;
        batches.push({ start, end: performance.now() });
        return purged;
      },
    },
  };
}

const gaps = (batches: { start: number; end: number }[]) => batches.slice(1).map((b, i) => b.start - batches[i]!.end);

describe('postgres cleanup pacing', () => {
  it('pauses between batches for pauseRatio × the last batch duration, 9× by default', async () => {
    expect(DEFAULT_PAUSE_RATIO).toBe(9);
    const { store, batches } = scriptedStore(3_000, 40);
    const job = startPostgresCleanup({ store, ttlMs: 60_000, intervalMs: 3_600_000, batchSize: 1_000 });
    expect(await job.runOnce()).toBe(3_000);
    await job.stop();
    expect(batches).toHaveLength(4); // 3 full batches, then the short one that ends the run
    for (const gap of gaps(batches)) expect(gap).toBeGreaterThanOrEqual(350); // ≈ 9 × the 40 ms batch, timer slack allowed
    expect(job.retention).toMatch(/pausing 9× each batch's duration/);
  });

  it('runs batches back to back with pauseRatio 0, and never pauses before a run\'s first batch', async () => {
    const { store, batches } = scriptedStore(3_000, 100);
    const job = startPostgresCleanup({ store, ttlMs: 60_000, intervalMs: 3_600_000, batchSize: 1_000, pauseRatio: 0 });
    await job.runOnce();
    for (const gap of gaps(batches)) expect(gap).toBeLessThan(60);
    const paced = scriptedStore(1_000, 100);
    const pacedJob = startPostgresCleanup({ store: paced.store, ttlMs: 60_000, intervalMs: 3_600_000, batchSize: 1_000, pauseRatio: 3 });
    await pacedJob.runOnce(); // batch 1 full, batch 2 empty: one pause of ≈ 300 ms between them
    const started = performance.now();
    await pacedJob.runOnce(); // a new run: its first batch starts at once
    expect(paced.batches.at(-1)!.start - started).toBeLessThan(60);
    expect(gaps(paced.batches)[0]).toBeGreaterThanOrEqual(280);
    await Promise.all([job.stop(), pacedJob.stop()]);
  });

  it('refuses a negative or non-finite pauseRatio at start', () => {
    const { store } = scriptedStore(0, 1);
    expect(() => startPostgresCleanup({ store, ttlMs: 60_000, pauseRatio: -1 })).toThrow(InvalidOptionsError);
    expect(() => startPostgresCleanup({ store, ttlMs: 60_000, pauseRatio: Number.NaN })).toThrow(/pauseRatio/);
  });
});
