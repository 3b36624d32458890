/**
 * DynamoDB claim races against dynalite, repeated: 64 claimers of a fresh key, of a lapsed lease
 * and of an expired record, one winner each round and every loser shown the winner's record; and
 * the flood test — 2,000 concurrent duplicates of one key through one engine, lease 2 s, action
 * 30 ms: the action runs once. IDEMPOTENCY_DYNAMO_RACE_ROUNDS / IDEMPOTENCY_FLOOD_SIZE change the sizes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { fingerprintFields, InProgressError } from '../../src/index.js';
import { claimInput, winnersOf, losersOf } from '../support/claims.js';
import { createDynamoDbStore, createDynamoDbTable } from '../../src/stores/dynamodb/index.js';
import { startDynalite } from './dynamodb-support/dynalite-server.js';

const ROUNDS = Number(process.env.IDEMPOTENCY_DYNAMO_RACE_ROUNDS ?? 8);
const FLOOD = Number(process.env.IDEMPOTENCY_FLOOD_SIZE ?? 2_000);
const server = await startDynalite();
afterAll(() => server.stop());

let tables = 0;
async function freshStore(clockSkewMs = 10) {
  const table = `race_${process.pid}_${++tables}`;
  await createDynamoDbTable(server.client, { table });
  return createDynamoDbStore({ client: server.document, table, clockSkewMs });
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('dynamodb claim races', () => {
  it(`fresh key: 64 claimers, ${ROUNDS} rounds, one winner, 63 see its record`, async () => {
    const store = await freshStore();
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(Array.from({ length: 64 }, () => store.claim(claimInput(`fresh-${round}`))));
      const winners = winnersOf(results);
      expect(winners).toHaveLength(1);
      for (const loser of losersOf(results)) expect(loser.record).toMatchObject({ status: 'PROCESSING', lockVersion: winners[0]!.lockVersion });
    }
  });

  it(`lapsed lease: 64 reclaimers, ${ROUNDS} rounds, one takes over at +1`, async () => {
    const store = await freshStore();
    for (let round = 0; round < ROUNDS; round++) {
      const key = `orphan-${round}`;
      const first = winnersOf([await store.claim(claimInput(key, { leaseMs: 30 }))])[0]!;
      await sleep(60);
      const results = await Promise.all(Array.from({ length: 64 }, () => store.claim(claimInput(key))));
      expect(winnersOf(results)).toEqual([expect.objectContaining({ lockVersion: first.lockVersion + 1, reclaimed: true })]);
      for (const loser of losersOf(results)) expect(loser.record).toMatchObject({ status: 'PROCESSING', lockVersion: first.lockVersion + 1 });
    }
  });

  it(`expired record: 64 claimers, ${ROUNDS} rounds, one replaces it, none sees the expired one`, async () => {
    const store = await freshStore();
    const response = { statusCode: 200, headers: null, body: new Uint8Array([1]), encoding: 'bytes' };
    for (let round = 0; round < ROUNDS; round++) {
      const key = `expired-${round}`;
      const first = winnersOf([await store.claim(claimInput(key))])[0]!;
      expect(await store.complete({ key, scope: 'user-1', lockVersion: first.lockVersion, ttlMs: 20, response })).toBe('applied');
      await sleep(40);
      const results = await Promise.all(Array.from({ length: 64 }, () => store.claim(claimInput(key))));
      const winners = winnersOf(results);
      expect(winners).toEqual([expect.objectContaining({ replacedExpired: true, lockVersion: first.lockVersion + 1 })]);
      for (const loser of losersOf(results)) expect(loser.record).toMatchObject({ status: 'PROCESSING', lockVersion: winners[0]!.lockVersion, response: null });
    }
  });

  it('claims racing a holder that claims and releases in a loop never answer "not found"', async () => {
    const store = await freshStore();
    let stop = false;
    let cycles = 0;
    const churn = (async () => {
      while (!stop) {
        const r = await store.claim(claimInput('churn'));
        if (r.outcome === 'claimed') {
          await store.release({ key: 'churn', scope: 'user-1', lockVersion: r.lockVersion });
          cycles++;
        } else await sleep(1);
      }
    })();
    try {
      let answered = 0;
      for (let round = 0; round < 6; round++) {
        await sleep(20);
        const results = await Promise.all(Array.from({ length: 32 }, () => store.claim(claimInput('churn'))));
        answered += results.length;
        expect(winnersOf(results).length).toBeLessThanOrEqual(1);
        // Released once the round is over, so the churn can win again before the next round.
        // (Winners releasing at once, 32 at a time, can exhaust claimAttempts on dynalite: it
        // returns no old item, so each loser re-reads and finds the key gone again. On DynamoDB
        // the failed write returns the old item and the loser answers at once. docs/stores/dynamodb.md)
        for (const r of winnersOf(results)) expect(await store.release({ key: 'churn', scope: 'user-1', lockVersion: r.lockVersion })).toBe('applied');
      }
      expect(answered).toBe(6 * 32);
    } finally {
      stop = true;
      await churn;
    }
    expect(cycles).toBeGreaterThan(0);
  });

  it(`flood: ${FLOOD} concurrent duplicates of one key, lease 2 s, action 30 ms: the action runs once`, async () => {
    const store = await freshStore(200);
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
    expect(executions).toBe(1);
    const fulfilled = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const rejected = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
    expect(fulfilled.filter((r) => !r.replayed)).toHaveLength(1);
    for (const reason of rejected) expect(reason).toBeInstanceOf(InProgressError);
    expect(await store.get({ key: 'flood-1', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED' });
    console.info(`[dynamodb flood] ${FLOOD} duplicates in ${Date.now() - started} ms: 1 execution, ${fulfilled.length - 1} replays, ${rejected.length} in_progress`);
  }, 60_000);
});
