/**
 * DynamoDB store against dynalite (started here on a free port): the conformance suite, both
 * kinds of client, bodies past the 400 KB item limit, the TTL attribute and its grace period,
 * the skew buffer, and the fallback read dynalite needs (it ignores ReturnValuesOnConditionCheckFailure).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, fingerprintFields } from '../../src/index.js';
import { runStoreConformance, binaryResponse } from '../../src/testing/index.js';
import { createDynamoDbStore, createDynamoDbTable, type DynamoDbStore } from '../../src/stores/dynamodb/index.js';
import type { ClaimInput } from '../../src/core/store-contract.js';
import type { DynamoDocumentLike } from '../../src/stores/dynamodb/index.js';
import { startDynalite, type Dynalite } from './dynamodb-support/dynalite-server.js';

const server = await startDynalite();
let tables = 0;
const freshTable = async () => {
  const table = `idem_${process.pid}_${++tables}`;
  await createDynamoDbTable(server.client, { table });
  return table;
};

afterAll(() => server.stop());

runStoreConformance({
  name: 'dynamodb (dynalite, DynamoDBDocument)',
  // Every app server here shares one clock: a small buffer keeps the suite's lease timing.
  createStore: async () => createDynamoDbStore({ client: server.document, table: await freshTable(), clockSkewMs: 20 }),
  leaseMs: 1000,
});

runStoreConformance({
  name: 'dynamodb (dynalite, raw DynamoDBClient)',
  createStore: async () => createDynamoDbStore({ client: server.client, table: await freshTable(), clockSkewMs: 20 }),
  leaseMs: 1000,
});

const fp = fingerprintFields(['dynamo', 1]);
const input = (key: string, overrides: Partial<ClaimInput> = {}): ClaimInput => ({
  key,
  scope: 'user-1',
  fingerprint: fp,
  owner: null,
  leaseMs: 1_000,
  ttlMs: 60_000,
  replaceExpired: true,
  ...overrides,
});

describe('dynamodb store specifics', () => {
  let store: DynamoDbStore;
  let table: string;
  let now = 1_800_000_000_000;
  beforeAll(async () => {
    table = await freshTable();
    // An injected app clock: skew and TTL arithmetic checked exactly, without sleeping.
    store = createDynamoDbStore({ client: server.document, table, clockSkewMs: 500, ttlGraceMs: 3_600_000, clock: () => now });
  });

  it('refuses bad options at creation', () => {
    expect(() => createDynamoDbStore({ client: {} as never, table: 'ok_table' })).toThrow(InvalidOptionsError);
    expect(() => createDynamoDbStore({ client: server.document, table: 'no spaces' })).toThrow(InvalidOptionsError);
    expect(() => createDynamoDbStore({ client: server.document, table: 'ok_table', clockSkewMs: -1 })).toThrow(InvalidOptionsError);
    expect(() => createDynamoDbStore({ client: server.document, table: 'ok_table', inlineBodyBytes: 500_000 })).toThrow(InvalidOptionsError);
  });

  it('puts the scope in the partition key', async () => {
    const claim = await store.claim(input('pk-1', { scope: 'tenant#7' }));
    expect(claim.outcome).toBe('claimed');
    const raw = await server.document.get({ TableName: table, Key: { pk: 'tenant#7#pk-1' } });
    expect(raw.Item).toMatchObject({ scope: 'tenant#7', idempotencyKey: 'pk-1', status: 'PROCESSING' });
  });

  it('adds the skew buffer to the stored lease end: no takeover until leaseMs + clockSkewMs have passed', async () => {
    const first = await store.claim(input('skew-1'));
    expect(first).toMatchObject({ outcome: 'claimed', lockedUntil: now + 1_000 + 500 });
    now += 1_200; // past the lease, inside the buffer
    const early = await store.claim(input('skew-1'));
    expect(early.outcome).toBe('existing');
    now += 400; // past lease + buffer
    const late = await store.claim(input('skew-1'));
    expect(late).toMatchObject({ outcome: 'claimed', reclaimed: true, lockVersion: (first as { lockVersion: number }).lockVersion + 1 });
  });

  it('writes the native TTL (epoch seconds) only on finished records, at expiresAt plus the grace period', async () => {
    const claim = await store.claim(input('ttl-1', { ttlMs: 10_000 }));
    if (claim.outcome !== 'claimed') throw new Error('expected a claim');
    let raw = await server.document.get({ TableName: table, Key: { pk: 'user-1#ttl-1' } });
    expect(raw.Item!.ttl).toBeUndefined(); // PROCESSING never expires by itself
    expect(await store.complete({ key: 'ttl-1', scope: 'user-1', lockVersion: claim.lockVersion, response: binaryResponse(4), ttlMs: 10_000 })).toBe('applied');
    raw = await server.document.get({ TableName: table, Key: { pk: 'user-1#ttl-1' } });
    expect(raw.Item!.ttl).toBe(Math.ceil((now + 10_000 + 3_600_000) / 1000));
    // Past expiresAt but inside the grace period: still there, so 'reject' can recognise it.
    now += 11_000;
    const kept = await store.claim(input('ttl-1', { replaceExpired: false }));
    expect(kept.outcome).toBe('existing');
    if (kept.outcome === 'existing') expect(kept.record.expiresAt).toBeLessThanOrEqual(kept.now);
  });

  it('answers a failed condition from a read, since dynalite returns no old item', async () => {
    // Proof that the fallback is needed here: the raw conditional write's error carries no Item.
    await store.claim(input('fallback-1'));
    const error = await server.document
      .put({ TableName: table, Item: { pk: 'user-1#fallback-1' }, ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })
      .catch((e: unknown) => e);
    expect((error as { name: string }).name).toBe('ConditionalCheckFailedException');
    expect((error as { Item?: unknown }).Item).toBeUndefined();
    const dup = await store.claim(input('fallback-1'));
    expect(dup).toMatchObject({ outcome: 'existing', record: { status: 'PROCESSING', key: 'fallback-1' } });
  });

  it('keeps a 1 MiB body in chunk items, and a stale holder leaves no chunks behind', async () => {
    const a = await store.claim(input('big-1'));
    if (a.outcome !== 'claimed') throw new Error('expected a claim');
    now += 2_000;
    const b = await store.claim(input('big-1'));
    if (b.outcome !== 'claimed') throw new Error('expected a reclaim');
    const response = binaryResponse(1024 * 1024);
    expect(await store.complete({ key: 'big-1', scope: 'user-1', lockVersion: a.lockVersion, response, ttlMs: 60_000 })).toBe('lost');
    const stale = await server.document.scan({ TableName: table, FilterExpression: 'chunkOf = :pk', ExpressionAttributeValues: { ':pk': 'user-1#big-1' } });
    expect(stale.Count).toBe(0);
    expect(await store.complete({ key: 'big-1', scope: 'user-1', lockVersion: b.lockVersion, response, ttlMs: 60_000 })).toBe('applied');
    const chunks = await server.document.scan({ TableName: table, FilterExpression: 'chunkOf = :pk', ExpressionAttributeValues: { ':pk': 'user-1#big-1' } });
    expect(chunks.Count).toBe(3);
    const record = await store.get({ key: 'big-1', scope: 'user-1' });
    expect(Buffer.from(record!.response!.body).equals(Buffer.from(response.body))).toBe(true);
    const sizeBefore = await store.size();
    now += 61_000;
    expect(await store.purgeExpired(100)).toBeGreaterThanOrEqual(1);
    const left = await server.document.scan({ TableName: table, FilterExpression: 'chunkOf = :pk', ExpressionAttributeValues: { ':pk': 'user-1#big-1' } });
    expect(left.Count).toBe(0);
    expect(await store.size()).toBeLessThan(sizeBefore);
  });
});

/** An item in DynamoDB's wire format (what a failed condition's error carries), for the types the store writes. */
const marshall = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item).map(([name, value]) => [
      name,
      typeof value === 'string' ? { S: value } : typeof value === 'number' ? { N: String(value) } : value instanceof Uint8Array ? { B: value } : { NULL: true },
    ]),
  );

describe('dynamodb store on what DynamoDB does and dynalite does not', () => {
  /** The dynalite client, with `update` and `get` wrapped by the test. */
  function wrapped(overrides: (doc: DynamoDocumentLike) => Partial<DynamoDocumentLike>): DynamoDocumentLike {
    const doc = server.document as unknown as DynamoDocumentLike;
    return Object.assign(Object.create(doc) as DynamoDocumentLike, overrides(doc));
  }

  it('answers from the old item a failed condition returns (ALL_OLD), without reading', async () => {
    const table = await freshTable();
    let reads = 0;
    const client = wrapped((doc) => ({
      // As DynamoDB does: the failed condition's error carries the item, in wire format.
      update: async (args) => {
        try {
          return await doc.update(args);
        } catch (error) {
          const current = await doc.get({ TableName: table, Key: args.Key as Record<string, unknown>, ConsistentRead: true });
          if (current.Item) Object.assign(error as object, { Item: marshall(current.Item) });
          throw error;
        }
      },
      get: async (args) => {
        reads++;
        return doc.get(args);
      },
    }));
    const store = createDynamoDbStore({ client, table, clockSkewMs: 20 });
    const first = await store.claim(input('allold-1', { scope: 'user-1', owner: null }));
    expect(first.outcome).toBe('claimed');
    const dup = await store.claim(input('allold-1'));
    expect(dup).toMatchObject({ outcome: 'existing', record: { status: 'PROCESSING', lockVersion: (first as { lockVersion: number }).lockVersion } });
    expect(reads).toBe(0);
  });

  it('recognises its own claim and completion when the SDK retried a write whose response was lost', async () => {
    const table = await freshTable();
    // Every update runs twice and answers the second run, like an SDK retry after a lost response.
    const client = wrapped((doc) => ({
      update: async (args) => {
        await doc.update(args).catch(() => undefined);
        return doc.update(args);
      },
    }));
    const store = createDynamoDbStore({ client, table, clockSkewMs: 20 });
    const claim = await store.claim(input('retry-1'));
    expect(claim.outcome).toBe('claimed');
    const lockVersion = (claim as { lockVersion: number }).lockVersion;
    expect(await store.complete({ key: 'retry-1', scope: 'user-1', lockVersion, response: binaryResponse(8), ttlMs: 60_000 })).toBe('applied');
    // A second, separate completion is still refused.
    expect(await store.complete({ key: 'retry-1', scope: 'user-1', lockVersion, response: binaryResponse(8), ttlMs: 60_000 })).toBe('lost');
    expect(await store.get({ key: 'retry-1', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED', lockVersion });
  });
});

describe('dynamodb size from DescribeTable', () => {
  it('reads ItemCount instead of scanning when sizeMode is describe', async () => {
    const table = await freshTable();
    const store = createDynamoDbStore({ client: server.document, table, sizeMode: 'describe' });
    await store.claim(input('describe-1'));
    const { DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
    const described = (await server.client.send(new DescribeTableCommand({ TableName: table }))).Table?.ItemCount;
    // DynamoDB refreshes ItemCount about every 6 hours; dynalite never does (it stays 0), so the
    // two modes disagree here — which shows that describe mode did not scan.
    expect(await store.size()).toBe(described);
    expect(await createDynamoDbStore({ client: server.document, table }).size()).toBe(1);
  });
});

describe('dynamodb table helper on dynalite', () => {
  it('creates the table once and says that dynalite cannot enable TTL', async () => {
    const dyn: Dynalite = server;
    const table = `helper_${process.pid}`;
    expect(await createDynamoDbTable(dyn.client, { table })).toEqual({ created: true, ttlEnabled: false });
    expect(await createDynamoDbTable(dyn.client, { table })).toEqual({ created: false, ttlEnabled: false });
  });
});
