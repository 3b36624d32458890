/**
 * Exactly once under a flood: 2,000 concurrent duplicates of one key through one engine on a
 * pool of 10 connections, lease 2 s, action 30 ms. The action must run once; the holder's
 * completion must land (its writes never queue behind the flood of claims: maxConcurrentClaims
 * keeps two connections free). IDEMPOTENCY_FLOOD_SIZE changes the number of duplicates.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { fingerprintFields, InProgressError } from '../../src/index.js';
import { mysqlAvailable, newMysqlPool, sleep, tableFactory } from './mysql-support/mysql-support.js';

const available = await mysqlAvailable();
const FLOOD = Number(process.env.IDEMPOTENCY_FLOOD_SIZE ?? 2_000);
const pool = newMysqlPool(10);
const tables = tableFactory(pool, import.meta.url);

afterAll(async () => {
  if (available) await tables.dropAll();
  await pool.end();
});

describe.skipIf(!available)('mysql store under a flood of duplicates', () => {
  it(`${FLOOD} concurrent duplicates of one key, pool of 10, lease 2 s, action 30 ms: the action runs once`, async () => {
    const store = await tables.fresh({ maxConcurrentClaims: 8 });
    const idempotency = createIdempotency({ store, leaseMs: 2_000 });
    const request = { key: 'flood-1', scope: 'user-1', fingerprint: fingerprintFields(['flood', 1]) };
    let executions = 0;
    const action = async () => {
      executions++;
      await sleep(30);
      return { charged: 4999 };
    };
    const started = Date.now();
    const settled = await Promise.allSettled(Array.from({ length: FLOOD }, () => idempotency.run(request, action)));
    const elapsed = Date.now() - started;
    expect(executions).toBe(1);
    const fulfilled = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const rejected = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
    expect(fulfilled.filter((r) => !r.replayed)).toHaveLength(1);
    expect(fulfilled.every((r) => r.value.charged === 4999)).toBe(true);
    for (const reason of rejected) expect(reason).toBeInstanceOf(InProgressError);
    expect(fulfilled.length + rejected.length).toBe(FLOOD);
    const record = await store.get({ key: 'flood-1', scope: 'user-1' });
    expect(record).toMatchObject({ status: 'COMPLETED' });
    console.info(`[mysql flood] ${FLOOD} duplicates in ${elapsed} ms: 1 execution, ${fulfilled.length - 1} replays, ${rejected.length} in_progress`);
  });
});
