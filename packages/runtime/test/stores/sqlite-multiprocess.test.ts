// Several PROCESSES on one SQLite file: each claim is decided under SQLite's file lock, so across
// processes every key is claimed once, an orphan is reclaimed once, and a protected action runs
// once per key. Real child processes (forked under tsx), real better-sqlite3, one temp file each.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { Attempt, RaceConfig, RaceMessage } from './workers/race-worker.js';
import { spawnWorker } from './workers/spawn-worker.js';

const PROCESSES = 4;
const dir = mkdtempSync(join(tmpdir(), 'idem-sqlite-mp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const keysFor = (label: string, n: number) => Array.from({ length: n }, (_, i) => `${label}_${i}`);

/** Starts all workers, waits until every one has the file open, then lets them race at once. */
async function race(config: Omit<RaceConfig, 'filename'> & { filename: string }): Promise<{ pid: number; attempts: Attempt[] }[]> {
  const workers = Array.from({ length: PROCESSES }, () => spawnWorker<RaceMessage>('race-worker.ts', config));
  try {
    await Promise.all(workers.map((w) => w.next('ready', 30_000)));
    const results = workers.map((w) => w.next<Extract<RaceMessage, { type: 'result' }>>('result', 30_000));
    const startAt = Date.now() + 300;
    for (const w of workers) w.child.send({ startAt });
    return (await Promise.all(results)).map(({ pid, attempts }) => ({ pid, attempts }));
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  }
}

/**
 * The race was between processes, not one after another: every process's attempts span a window
 * that overlaps every other's. (Which process wins is up to SQLite's lock, which is not fair, so
 * one process winning every key is legitimate and not asserted against.)
 */
function expectOverlap(results: { pid: number; attempts: Attempt[] }[]) {
  const windows = results.map(({ attempts }) => ({
    from: Math.min(...attempts.map((a) => a.startedAt)),
    to: Math.max(...attempts.map((a) => a.endedAt)),
  }));
  expect(Math.max(...windows.map((w) => w.from))).toBeLessThan(Math.min(...windows.map((w) => w.to)));
}

const byKey = (results: { pid: number; attempts: Attempt[] }[]) => {
  const map = new Map<string, (Attempt & { pid: number })[]>();
  for (const { pid, attempts } of results) for (const a of attempts) map.set(a.key, [...(map.get(a.key) ?? []), { ...a, pid }]);
  return map;
};

describe(`sqlite store shared by ${PROCESSES} processes`, () => {
  it('claims every key exactly once across processes (4 × 16 keys × 8 concurrent claims)', async () => {
    const keys = keysFor('claim', 16);
    const results = await race({ filename: join(dir, `mp-${++files}.db`), mode: 'claim', keys, duplicates: 8, leaseMs: 30_000, jitterMs: 50 });
    const seen = byKey(results);
    expect(seen.size).toBe(keys.length);
    for (const key of keys) {
      const attempts = seen.get(key)!;
      expect(attempts).toHaveLength(PROCESSES * 8);
      const winners = attempts.filter((a) => a.outcome === 'claimed');
      expect(winners, key).toHaveLength(1);
      expect(winners[0]).toMatchObject({ reclaimed: false });
      expect(attempts.filter((a) => a.outcome === 'existing').every((a) => a.lockVersion === winners[0]!.lockVersion)).toBe(true);
    }
    expectOverlap(results);
  }, 60_000);

  it('lets exactly one process reclaim each orphan, at the next lockVersion', async () => {
    const filename = join(dir, `mp-${++files}.db`);
    const keys = keysFor('orphan', 16);
    const store = createSqliteStore({ filename });
    const fingerprint = fingerprintFields(['race', 1]);
    const versions = new Map<string, number>();
    for (const key of keys) {
      // a worker that claimed with a 50 ms lease and died: PROCESSING v, lease soon over
      const claim = await store.claim({ key, scope: 'tenant-1', fingerprint, owner: null, leaseMs: 50, ttlMs: 60_000, replaceExpired: true });
      if (claim.outcome !== 'claimed') throw new Error('setup claim failed');
      versions.set(key, claim.lockVersion);
    }
    await store.close();
    const results = await race({ filename, mode: 'claim', keys, duplicates: 6, leaseMs: 30_000, jitterMs: 50 });
    const seen = byKey(results);
    for (const key of keys) {
      const winners = seen.get(key)!.filter((a) => a.outcome === 'claimed');
      expect(winners, key).toHaveLength(1);
      expect(winners[0]).toMatchObject({ lockVersion: versions.get(key)! + 1, reclaimed: true });
    }
    expectOverlap(results);
  }, 60_000);

  it('runs a protected action once per key across processes (engine end to end, side effects counted)', async () => {
    const filename = join(dir, `mp-${++files}.db`);
    const effectsFile = join(dir, `effects-${files}.log`);
    writeFileSync(effectsFile, '');
    const keys = keysFor('engine', 12);
    const duplicates = 6;
    const results = await race({ filename, mode: 'engine', keys, duplicates, leaseMs: 5_000, effectsFile, actionMs: 40, jitterMs: 150 });

    const effects = readFileSync(effectsFile, 'utf8').trim().split('\n').map((line) => line.split(' '));
    for (const key of keys) expect(effects.filter(([k]) => k === key), key).toHaveLength(1);
    expect(effects).toHaveLength(keys.length);

    const seen = byKey(results);
    const outcomes = new Map<string, number>();
    for (const key of keys) {
      const attempts = seen.get(key)!;
      const ran = attempts.filter((a) => a.outcome === 'ran');
      expect(ran, key).toHaveLength(1);
      const runner = ran[0]!.pid;
      expect(effects.find(([k]) => k === key)![1]).toBe(String(runner));
      for (const a of attempts) {
        outcomes.set(a.outcome, (outcomes.get(a.outcome) ?? 0) + 1);
        expect(['ran', 'replayed', 'in_progress']).toContain(a.outcome); // never store_unavailable, never a second run
        if (a.outcome === 'replayed') expect(a.by).toBe(runner); // the stored result is the one run's
      }
    }
    expect(outcomes.get('ran')).toBe(keys.length);
    expectOverlap(results);
    expect((outcomes.get('replayed') ?? 0) + (outcomes.get('in_progress') ?? 0)).toBe(keys.length * (PROCESSES * duplicates - 1));
    // jitter spans the action, so duplicates met both a live lease and a finished record
    expect(outcomes.get('replayed') ?? 0).toBeGreaterThan(0);
    expect(outcomes.get('in_progress') ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
