/**
 * DynamoDB store against dynalite (started as a child process on a free loopback port, so the
 * emulator does not share the bench's event loop): claim + complete per second through the store
 * vs lib-dynamodb sending the very same two conditional updates (expressions.ts), at 1, 8 and 32
 * clients, alternating rounds. Dynalite is far slower than DynamoDB and has no network latency:
 * the ratio (the store's own overhead) is what carries over, not the absolute figures.
 * Env: IDEMPOTENCY_BENCH_DYNAMO_MS = measured ms per side and case (default 3000).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import { fingerprintFields } from '@idempotency-builder/runtime';
import { createDynamoDbStore, createDynamoDbTable } from '@idempotency-builder/runtime/dynamodb';
import { claimExpression, finishExpression } from '../src/stores/dynamodb/expressions.js';
import { partitionKey } from '../src/stores/dynamodb/item-mapping.js';
import { startDynalite } from './dynalite.js';
import type { BenchSuite, Reporter, Row } from './harness.js';

const MS = Number(process.env.IDEMPOTENCY_BENCH_DYNAMO_MS ?? 3_000);
const CLIENTS = [1, 8, 32];
const table = 'bench_idempotency';
const fingerprint = fingerprintFields([4999, 'EUR', 'acct_xyz']);
const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"id":"pay_1","amount":4999}'), encoding: 'json' };
const leaseMs = 30_000;
const ttlMs = 3_600_000;
const skewMs = 1_000;

async function throughput(clients: number, ms: number, op: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  const deadline = started + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        await op();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function run(report: Reporter, doc: DynamoDBDocument) {
  const store = createDynamoDbStore({ client: doc, table, clockSkewMs: skewMs });
  let n = 0;
  const nextKey = () => `k-${process.pid}-${n++}`;
  /** The store's two writes by hand: the conditional claim update, then the fenced finish. */
  const raw = async () => {
    const id = { key: nextKey(), scope: 'bench' };
    const now = Date.now();
    await doc.update({
      TableName: table,
      Key: { pk: partitionKey(id) },
      ...claimExpression({ ...id, owner: null, fingerprint, now, lockedUntil: now + leaseMs + skewMs, expiresAt: now + ttlMs, replaceExpired: true, nonce: randomBytes(16).toString('hex') }),
      ReturnValues: 'ALL_OLD',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const done = Date.now();
    await doc.update({
      TableName: table,
      Key: { pk: partitionKey(id) },
      ...finishExpression({
        lockVersion: now,
        status: 'COMPLETED',
        code: response.statusCode,
        headers: JSON.stringify(response.headers),
        encoding: response.encoding,
        body: response.body,
        chunks: 0,
        now: done,
        expiresAt: done + ttlMs,
        ttl: Math.ceil((done + ttlMs + 86_400_000) / 1000),
        nonce: randomBytes(16).toString('hex'),
      }),
    });
  };
  const ours = async () => {
    const key = nextKey();
    const claim = await store.claim({ key, scope: 'bench', fingerprint, owner: null, leaseMs, ttlMs, replaceExpired: true });
    if (claim.outcome !== 'claimed') throw new Error('bench key collided');
    if ((await store.complete({ key, scope: 'bench', lockVersion: claim.lockVersion, response, ttlMs })) !== 'applied') throw new Error('lost');
  };
  const rows: Row[] = [];
  for (const clients of CLIENTS) {
    let base = 0;
    let mine = 0;
    for (let round = 0; round < 3; round++) {
      base += (await throughput(clients, MS / 3, raw)) / 3;
      mine += (await throughput(clients, MS / 3, ours)) / 3;
    }
    rows.push({ label: `raw lib-dynamodb, claim update + finish update, ${clients} client(s) (baseline)`, opsPerSec: base, ratio: 1 });
    rows.push({ label: `store.claim + store.complete, ${clients} client(s)`, opsPerSec: mine, ratio: mine / base });
  }
  report.table(`claim + complete per second on dynalite (${MS} ms per side and case; ratio = store / raw SDK calls)`, rows);
}

const suite: BenchSuite = {
  name: 'dynamodb store (dynalite)',
  async run(report) {
    const { endpoint, child } = await startDynalite();
    const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
    try {
      await createDynamoDbTable(client, { table });
      report.line(`dynalite at ${endpoint}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      await run(report, DynamoDBDocument.from(client, { marshallOptions: { removeUndefinedValues: true } }));
    } finally {
      client.destroy();
      child.kill();
    }
  },
};

export default suite;
