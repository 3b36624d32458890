/**
 * The MySQL claim is an upsert followed by a read-back (two statements unless multiStatement).
 * These races prove that second step safe under READ COMMITTED and REPEATABLE READ: 64 claimers
 * on 64 server sessions, many rounds, for fresh keys, lapsed leases and expired records — exactly
 * one winner each round, every loser shown the winner's record, never "not found".
 * IDEMPOTENCY_MYSQL_RACE_ROUNDS raises the rounds (default 12).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency, InProgressError } from '../../src/index.js';
import { claimInput, winnersOf, losersOf, RACE_FINGERPRINT } from '../support/claims.js';
import type { MysqlStore } from '../../src/stores/mysql/index.js';
import { mysqlAvailable, newMysqlPool, sleep, tableFactory, warmMysqlPool } from './mysql-support/mysql-support.js';

const available = await mysqlAvailable();
const ROUNDS = Number(process.env.IDEMPOTENCY_MYSQL_RACE_ROUNDS ?? 12);
const LEVELS = { 'READ COMMITTED': 'READ-COMMITTED', 'REPEATABLE READ': 'REPEATABLE-READ' } as const;
const fp = RACE_FINGERPRINT;

for (const [level, variable] of Object.entries(LEVELS)) {
  describe.skipIf(!available)(`mysql claim races under ${level}`, () => {
    const pool = newMysqlPool(64);
    // Every session of this pool runs at the level under test.
    pool.on('connection', (connection) => {
      connection.query(`SET SESSION TRANSACTION ISOLATION LEVEL ${level}`);
    });
    const tables = tableFactory(pool, `${import.meta.url}-${variable.toLowerCase()}`);
    // Ended with its level's tests, so the file holds at most 64 server connections at a time.
    afterAll(async () => {
      if (available) await tables.dropAll();
      await pool.end();
    });
    let store: MysqlStore;

    it('runs its sessions at that level', async () => {
      await warmMysqlPool(pool, 64);
      store = await tables.fresh();
      const [rows] = await pool.query('SELECT @@session.tx_isolation AS level');
      expect((rows as { level: string }[])[0]!.level).toBe(variable);
    });

    it(`fresh key: 64 claimers, ${ROUNDS} rounds, one winner, 63 see its record`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const key = `fresh-${round}`;
        const results = await Promise.all(Array.from({ length: 64 }, () => store.claim(claimInput(key))));
        const winners = winnersOf(results);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toMatchObject({ reclaimed: false, replacedExpired: false });
        const losers = losersOf(results);
        expect(losers).toHaveLength(63);
        for (const loser of losers) expect(loser.record).toMatchObject({ status: 'PROCESSING', lockVersion: winners[0]!.lockVersion });
      }
    });

    it(`lapsed lease: 64 reclaimers, ${ROUNDS} rounds, one takes over at +1, the rest see the new version`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const key = `orphan-${round}`;
        const first = winnersOf([await store.claim(claimInput(key, { leaseMs: 40 }))])[0]!;
        await sleep(60);
        const results = await Promise.all(Array.from({ length: 64 }, () => store.claim(claimInput(key))));
        expect(winnersOf(results)).toEqual([expect.objectContaining({ lockVersion: first.lockVersion + 1, reclaimed: true })]);
        for (const loser of losersOf(results)) {
          expect(loser.record).toMatchObject({ status: 'PROCESSING', lockVersion: first.lockVersion + 1 });
          expect(loser.record.lockedUntil!).toBeGreaterThan(loser.now);
        }
      }
    });

    it(`expired record: 64 claimers, ${ROUNDS} rounds, one replaces it, none sees the expired one`, async () => {
      const response = { statusCode: 200, headers: null, body: new Uint8Array([1]), encoding: 'bytes' };
      for (let round = 0; round < ROUNDS; round++) {
        const key = `expired-${round}`;
        const first = winnersOf([await store.claim(claimInput(key))])[0]!;
        expect(await store.complete({ key, scope: 'user-1', lockVersion: first.lockVersion, ttlMs: 20, response })).toBe('applied');
        await sleep(40);
        const results = await Promise.all(Array.from({ length: 64 }, () => store.claim(claimInput(key))));
        const winners = winnersOf(results);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toMatchObject({ replacedExpired: true });
        expect(winners[0]!.lockVersion).toBeGreaterThan(first.lockVersion + 1);
        for (const loser of losersOf(results)) expect(loser.record).toMatchObject({ status: 'PROCESSING', lockVersion: winners[0]!.lockVersion, response: null });
      }
    });

    it('claims racing a holder that claims and releases in a loop never answer "not found"', async () => {
      const key = 'churn';
      let stop = false;
      let cycles = 0;
      const churn = (async () => {
        while (!stop) {
          const r = await store.claim(claimInput(key, { leaseMs: 30_000 }));
          if (r.outcome === 'claimed') {
            await store.release({ key, scope: 'user-1', lockVersion: r.lockVersion });
            cycles++;
          }
        }
      })();
      let answered = 0;
      for (let round = 0; round < 4; round++) {
        const results = await Promise.all(Array.from({ length: 32 }, () => store.claim(claimInput(key))));
        answered += results.length;
        for (const r of results) {
          expect(['claimed', 'existing']).toContain(r.outcome);
          if (r.outcome === 'claimed') await store.release({ key, scope: 'user-1', lockVersion: r.lockVersion });
        }
      }
      stop = true;
      await churn;
      expect(answered).toBe(128);
      expect(cycles).toBeGreaterThan(0);
    });

    it('64 concurrent runs of one request through the engine execute the action once', async () => {
      const idempotency = createIdempotency({ store, leaseMs: 5_000 });
      let executions = 0;
      const request = { key: 'engine-once', scope: 'user-1', fingerprint: fp };
      const action = async () => {
        executions++;
        await sleep(100);
        return { charged: 4999 };
      };
      const settled = await Promise.allSettled(Array.from({ length: 64 }, () => idempotency.run(request, action)));
      expect(executions).toBe(1);
      for (const s of settled) if (s.status === 'rejected') expect(s.reason).toBeInstanceOf(InProgressError);
      const replays = await Promise.all(Array.from({ length: 16 }, () => idempotency.run(request, action)));
      expect(executions).toBe(1);
      expect(replays.every((r) => r.replayed && r.value.charged === 4999)).toBe(true);
    });
  });
}
