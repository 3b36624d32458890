/**
 * The DynamoDB store: one conditional write per operation, the scope in the partition key,
 * native TTL (plus a grace period) for cleanup. DynamoDB has no server clock: every time is the
 * app server's clock, and lease ends carry a stated skew buffer (expressions.ts). Bodies larger
 * than one item allows (400 KB) go to chunk items written before the fenced completion.
 */
import { randomBytes } from 'node:crypto';
import { InvalidOptionsError, StoreUnavailableError } from '../../core/errors.js';
import { positiveInteger } from '../../core/options.js';
import type { IdempotencyRecord } from '../../core/record.js';
import type { ClaimInput, ClaimResult, FencedResult, FinishInput, IdempotencyStore } from '../../core/store-contract.js';
import { isConditionFailed, isDynamoClient, oldItemOf, toDocument, type DynamoClientLike, type DynamoDocumentLike, type DynamoItem } from './document-port.js';
import {
  claimExpression,
  extendExpression,
  finishExpression,
  forceReleaseExpression,
  purgeDeleteExpression,
  purgeFilter,
  recordsFilter,
  releaseExpression,
  stuckFilter,
  type Expression,
} from './expressions.js';
import { ATTR, chunkCount, chunkKey, partitionKey, splitBody, toDynamoRecord } from './item-mapping.js';
// The defaults shape the stored data (lease ends, ttl), so the contract that other languages read is their one definition.
import { DYNAMODB_DEFAULTS } from '../../contract/dynamodb.js';

export interface DynamoDbStoreOptions {
  /** A lib-dynamodb `DynamoDBDocument`, or a `DynamoDBClient` (wrapped with lib-dynamodb on first use). Never destroyed by the store. */
  readonly client: DynamoDocumentLike | DynamoClientLike;
  /** Table name; its partition key is a string attribute named `pk` (createDynamoDbTable). */
  readonly table: string;
  /**
   * The largest clock difference between any two app servers, in ms. Added to every stored lease
   * end, so a takeover waits this much longer after a crash (and Retry-After grows by as much).
   * Default 1000.
   */
  readonly clockSkewMs?: number;
  /**
   * How long a finished record stays after its expiresAt before DynamoDB's TTL may delete it, so
   * `onExpired: 'reject'` can still recognise the key. TTL deletion itself lags (typically within
   * days). Default 24 h.
   */
  readonly ttlGraceMs?: number;
  /** Bodies up to this many bytes stay in the record item; larger ones go to chunk items. Default 350 000. */
  readonly inlineBodyBytes?: number;
  /** `scan` (exact, reads the whole table) or `describe` (DescribeTable ItemCount, refreshed about every 6 h). Default `scan`. */
  readonly sizeMode?: 'scan' | 'describe';
  /** The app clock, ms since the epoch. Default Date.now. */
  readonly clock?: () => number;
  /**
   * How often a claim retries when the item changed between its failed write and the read that
   * follows it (only where the server returns no old item, e.g. dynalite). Default 16.
   */
  readonly claimAttempts?: number;
}

export interface DynamoDbStore extends IdempotencyStore {
  readonly table: string;
  readonly clockSkewMs: number;
}

type Operation = 'claim' | 'complete' | 'fail' | 'release' | 'extend' | 'get' | 'purgeExpired' | 'listStuck' | 'forceRelease' | 'size' | 'now';

/** Chunk items hold at most what a record item may hold inline: both stay under the 400 KB item limit. */
const CHUNK_BYTES = DYNAMODB_DEFAULTS.inlineBodyBytes;

/**
 * Creates the store. Options are checked here, once; the table must exist (createDynamoDbTable).
 * @example
 * import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
 * import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createDynamoDbStore } from '@idempotency-builder/runtime/dynamodb';
 * const client = DynamoDBDocument.from(new DynamoDBClient({ region: 'eu-west-1' }));
 * const store = createDynamoDbStore({ client, table: 'idempotency', clockSkewMs: 500 });
 * const idempotency = createIdempotency({ store, leaseMs: 10_000 });
 */
export function createDynamoDbStore(options: DynamoDbStoreOptions): DynamoDbStore {
  const { client, table, clock = Date.now, sizeMode = 'scan' } = options ?? {};
  if (!isDynamoClient(client)) throw new InvalidOptionsError('Option "client" must be a DynamoDBDocument (lib-dynamodb) or a DynamoDBClient.');
  if (typeof table !== 'string' || !/^[A-Za-z0-9_.-]{3,255}$/.test(table)) {
    throw new InvalidOptionsError(`Option "table" must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -); got ${JSON.stringify(table)}.`);
  }
  if (sizeMode !== 'scan' && sizeMode !== 'describe') throw new InvalidOptionsError(`Option "sizeMode" must be "scan" or "describe"; got ${String(sizeMode)}.`);
  if (typeof clock !== 'function') throw new InvalidOptionsError('Option "clock" must be a function returning ms since the epoch.');
  const clockSkewMs = positiveInteger('clockSkewMs', options.clockSkewMs ?? DYNAMODB_DEFAULTS.clockSkewMs, { min: 0 });
  const ttlGraceMs = positiveInteger('ttlGraceMs', options.ttlGraceMs ?? DYNAMODB_DEFAULTS.ttlGraceMs, { min: 0 });
  const inlineBodyBytes = positiveInteger('inlineBodyBytes', options.inlineBodyBytes ?? DYNAMODB_DEFAULTS.inlineBodyBytes);
  if (inlineBodyBytes > CHUNK_BYTES) throw new InvalidOptionsError(`Option "inlineBodyBytes" must be at most ${CHUNK_BYTES} (an item holds 400 KB).`);
  const claimAttempts = positiveInteger('claimAttempts', options.claimAttempts ?? 16);

  let closed = false;
  let document: Promise<DynamoDocumentLike> | undefined;
  const db = () => (document ??= toDocument(client));

  /** Every SDK failure other than a failed condition leaves as StoreUnavailableError, its cause kept. */
  async function call<T>(operation: Operation, body: (doc: DynamoDocumentLike) => Promise<T>): Promise<T> {
    if (closed) throw new StoreUnavailableError(operation, new Error('The DynamoDB store is closed.'));
    try {
      return await body(await db());
    } catch (error) {
      if (isConditionFailed(error)) throw error;
      throw new StoreUnavailableError(operation, error);
    }
  }
  /** A conditional write: 'applied', or 'lost' when its condition failed. */
  async function fenced(operation: Operation, body: (doc: DynamoDocumentLike) => Promise<unknown>): Promise<FencedResult> {
    try {
      await call(operation, body);
      return 'applied';
    } catch (error) {
      if (isConditionFailed(error)) return 'lost';
      throw error;
    }
  }
  const key = (id: { key: string; scope: string }) => ({ [ATTR.pk]: partitionKey(id) });
  const ttlOf = (expiresAt: number) => Math.ceil((expiresAt + ttlGraceMs) / 1000);

  /** The record of an item, its body read from chunk items when it has them. */
  async function recordOf(operation: Operation, item: DynamoItem): Promise<IdempotencyRecord> {
    const count = chunkCount(item);
    if (count === 0) return toDynamoRecord(item);
    const pk = String(item[ATTR.pk]);
    const version = Number(item[ATTR.lockVersion]);
    const keys = Array.from({ length: count }, (_, i) => ({ [ATTR.pk]: chunkKey(pk, version, i) }));
    const parts = new Map<string, Uint8Array>();
    // Chunks are small in number (a 1 MiB body is 3); BatchGet answers up to 100 keys and 16 MB.
    let pending: Record<string, unknown> | undefined = { [table]: { Keys: keys, ConsistentRead: true } };
    for (let round = 0; pending && round < 10; round++) {
      const requestItems: Record<string, unknown> = pending;
      const out = await call(operation, (doc) => doc.batchGet({ RequestItems: requestItems }));
      for (const chunk of out.Responses?.[table] ?? []) parts.set(String(chunk[ATTR.pk]), chunk[ATTR.body] as Uint8Array);
      pending = out.UnprocessedKeys && Object.keys(out.UnprocessedKeys).length > 0 ? out.UnprocessedKeys : undefined;
    }
    const ordered = keys.map((k) => parts.get(String(k[ATTR.pk])));
    if (ordered.some((part) => part === undefined)) {
      throw new StoreUnavailableError(operation, new Error(`A response body chunk of ${pk} is missing (purged or not yet written).`));
    }
    return toDynamoRecord(item, Buffer.concat(ordered as Uint8Array[]));
  }

  async function read(operation: Operation, id: { key: string; scope: string }): Promise<DynamoItem | undefined> {
    return (await call(operation, (doc) => doc.get({ TableName: table, Key: key(id), ConsistentRead: true }))).Item;
  }

  /** Would this claim take the record over now? (Then an 'existing' answer would be wrong: retry.) */
  const claimable = (record: IdempotencyRecord, input: ClaimInput, now: number) =>
    record.status === 'PROCESSING'
      ? (record.lockedUntil ?? 0) <= now && record.fingerprint === input.fingerprint && record.owner === input.owner
      : input.replaceExpired && record.expiresAt <= now;

  async function claim(input: ClaimInput): Promise<ClaimResult> {
    for (let attempt = 1; attempt <= claimAttempts; attempt++) {
      const now = clock();
      const lockedUntil = now + input.leaseMs + clockSkewMs;
      const nonce = randomBytes(16).toString('hex');
      const expression = claimExpression({
        key: input.key,
        scope: input.scope,
        owner: input.owner,
        fingerprint: input.fingerprint,
        now,
        lockedUntil,
        expiresAt: now + input.ttlMs,
        replaceExpired: input.replaceExpired,
        nonce,
      });
      let old: DynamoItem | undefined;
      try {
        const out = await call('claim', (doc) =>
          doc.update({ TableName: table, Key: key(input), ...expression, ReturnValues: 'ALL_OLD', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
        );
        const previous = out.Attributes;
        const fresh = previous === undefined || Object.keys(previous).length === 0;
        return {
          outcome: 'claimed',
          lockVersion: fresh ? now : Number(previous[ATTR.lockVersion]) + 1,
          reclaimed: !fresh && previous[ATTR.status] === 'PROCESSING',
          replacedExpired: !fresh && previous[ATTR.status] !== 'PROCESSING',
          lockedUntil,
        };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
        // DynamoDB returns the item that failed the condition; dynalite does not, so read it.
        old = oldItemOf(error) ?? (await read('claim', input));
      }
      if (old === undefined) {
        // Released between the write and the read: claim again, after a short random pause so
        // that a holder claiming and releasing in a loop cannot keep this claimer in lockstep.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
        continue;
      }
      if (old[ATTR.claimToken] === nonce && old[ATTR.status] === 'PROCESSING') {
        // Our own write, whose response was lost and whose SDK retry then failed the condition.
        // Which case it took over is not known any more; the claim is ours all the same.
        return { outcome: 'claimed', lockVersion: Number(old[ATTR.lockVersion]), reclaimed: false, replacedExpired: false, lockedUntil: Number(old[ATTR.lockedUntil]) };
      }
      const record = await recordOf('claim', old);
      if (claimable(record, input, now)) continue; // changed since the write: try the write again
      return { outcome: 'existing', record, now };
    }
    throw new StoreUnavailableError('claim', new Error(`The claim neither won nor found the record in ${claimAttempts} attempts (the key kept changing).`));
  }

  async function finish(operation: 'complete' | 'fail', status: 'COMPLETED' | 'FAILED', input: FinishInput): Promise<FencedResult> {
    const now = clock();
    const expiresAt = now + input.ttlMs;
    const pk = partitionKey(input);
    const { body } = input.response;
    const nonce = randomBytes(16).toString('hex');
    const chunks = body.byteLength > inlineBodyBytes ? splitBody(body, CHUNK_BYTES) : [];
    // Chunks first, keyed by this lockVersion: the fenced update below makes them visible, or
    // (lost) they are deleted again — and carry the TTL either way.
    await Promise.all(
      chunks.map((part, i) =>
        call(operation, (doc) =>
          doc.put({ TableName: table, Item: { [ATTR.pk]: chunkKey(pk, input.lockVersion, i), [ATTR.chunkOf]: pk, [ATTR.body]: part, [ATTR.expiresAt]: expiresAt, [ATTR.ttl]: ttlOf(expiresAt) } }),
        ),
      ),
    );
    const expression = finishExpression({
      lockVersion: input.lockVersion,
      status,
      code: input.response.statusCode,
      headers: input.response.headers === null ? null : JSON.stringify(input.response.headers),
      encoding: input.response.encoding,
      body: chunks.length > 0 || body.byteLength === 0 ? null : body,
      chunks: chunks.length,
      now,
      expiresAt,
      ttl: ttlOf(expiresAt),
      nonce,
    });
    let result = await fenced(operation, (doc) => doc.update({ TableName: table, Key: { [ATTR.pk]: pk }, ...expression }));
    if (result === 'lost') {
      // The SDK retries a write whose response was lost; the retry then fails the fence. The
      // nonce tells this write's own earlier attempt from anyone else's (or an earlier call's).
      const current = await read(operation, input);
      if (current?.[ATTR.finishToken] === nonce) result = 'applied';
    }
    if (result === 'lost' && chunks.length > 0) await deleteChunks(operation, pk, input.lockVersion, chunks.length).catch(() => {});
    return result;
  }

  async function deleteChunks(operation: Operation, pk: string, lockVersion: number, count: number) {
    await Promise.all(Array.from({ length: count }, (_, i) => call(operation, (doc) => doc.delete({ TableName: table, Key: { [ATTR.pk]: chunkKey(pk, lockVersion, i) } }))));
  }

  /** Scans the table with `filter`, page by page, until `enough` items are found or the table ends. */
  async function scan(operation: Operation, filter: Expression, enough = Infinity): Promise<DynamoItem[]> {
    const found: DynamoItem[] = [];
    let start: DynamoItem | undefined;
    do {
      const page = await call(operation, (doc) => doc.scan({ TableName: table, ConsistentRead: true, ...filter, ...(start ? { ExclusiveStartKey: start } : {}) }));
      found.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start && found.length < enough);
    return found;
  }

  return {
    table,
    clockSkewMs,
    claim,
    complete: (input) => finish('complete', 'COMPLETED', input),
    fail: (input) => finish('fail', 'FAILED', input),
    release: (input) => fenced('release', (doc) => doc.delete({ TableName: table, Key: key(input), ...releaseExpression(input.lockVersion) })),
    extend: (input) =>
      fenced('extend', (doc) => doc.update({ TableName: table, Key: key(input), ...extendExpression(input.lockVersion, clock() + input.leaseMs + clockSkewMs) })),
    async get(id) {
      const item = await read('get', id);
      return item ? recordOf('get', item) : null;
    },
    async purgeExpired(batchSize) {
      positiveInteger('batchSize', batchSize);
      const now = clock();
      const doomed = (await scan('purgeExpired', purgeFilter(now), batchSize)).slice(0, batchSize);
      let purged = 0;
      for (const item of doomed) {
        const version = Number(item[ATTR.lockVersion]);
        const pk = String(item[ATTR.pk]);
        const result = await fenced('purgeExpired', (doc) =>
          doc.delete({ TableName: table, Key: { [ATTR.pk]: pk }, ...purgeDeleteExpression(version, String(item[ATTR.status]), now) }),
        );
        if (result !== 'applied') continue;
        purged++;
        if (chunkCount(item) > 0) await deleteChunks('purgeExpired', pk, version, chunkCount(item));
      }
      return purged;
    },
    async listStuck({ olderThanMs, limit }) {
      const items = await scan('listStuck', stuckFilter(clock() - olderThanMs));
      items.sort((a, b) => Number(a[ATTR.lockedUntil]) - Number(b[ATTR.lockedUntil]));
      return items.slice(0, limit).map((item) => toDynamoRecord(item));
    },
    async forceRelease(id) {
      return (await fenced('forceRelease', (doc) => doc.update({ TableName: table, Key: key(id), ...forceReleaseExpression(clock()) }))) === 'applied';
    },
    async size() {
      if (sizeMode === 'describe') {
        const lib = (await import('@aws-sdk/client-dynamodb')) as unknown as { DescribeTableCommand: new (input: unknown) => unknown };
        const out = (await call('size', async () => (client as DynamoClientLike).send(new lib.DescribeTableCommand({ TableName: table })))) as { Table?: { ItemCount?: number } };
        return out.Table?.ItemCount ?? 0;
      }
      let total = 0;
      let start: DynamoItem | undefined;
      do {
        const page = await call('size', (doc) => doc.scan({ TableName: table, Select: 'COUNT', ...recordsFilter(), ...(start ? { ExclusiveStartKey: start } : {}) }));
        total += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return total;
    },
    async now() {
      return clock();
    },
    async close() {
      closed = true;
    },
  };
}
