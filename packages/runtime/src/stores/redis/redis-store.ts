/**
 * The Redis store: every record operation is one Lua script (one round trip, atomic on the
 * server, compared against the server's TIME), keyed so a record's keys share a Redis Cluster
 * slot, expired by PEXPIREAT once finished, and — with `waitForReplicas` — acknowledged only
 * once replicas hold the write. Guarantees per durability mode: docs/stores/redis.md.
 */
import { InvalidOptionsError, StoreUnavailableError } from '../../core/errors.js';
import { withStoreTimeout } from '../../core/store-timeout.js';
import type { IdempotencyRecord } from '../../core/record.js';
import { positiveInteger } from '../../core/options.js';
import type { ClaimInput, ClaimResult, FencedResult, FinishInput, IdempotencyStore, RecordId } from '../../core/store-contract.js';
import { isRedisPort, type RedisPort } from './client-port.js';
import { ioredisPort, isIoRedis, type IoRedisLike } from './ioredis-port.js';
import { countKeys, readRecords, scanKeys, serverTime } from './keyspace-scan.js';
import { createKeyLayout, type RecordKeys } from './key-layout.js';
import { LUA_SCRIPTS } from './lua/scripts.generated.js';
import { isNodeRedis, nodeRedisPort, type NodeRedisClientLike } from './node-redis-port.js';
import { decodeRecord, RECORD_FIELDS, replyArray, replyNumber, replyText } from './record-codec.js';
import { runScripts, type LuaScript, type ReplicaWait } from './script-runner.js';

export interface RedisStoreOptions {
  /** An ioredis `Redis` or `Cluster`, a node-redis client from `createClient()`, or a `RedisPort`. */
  readonly client: IoRedisLike | NodeRedisClientLike | RedisPort;
  /** Prepended to every key; no braces. Default `idem:`. */
  readonly prefix?: string;
  /**
   * Durable mode: after each write, WAIT until `count` replicas hold it, at most `timeoutMs`.
   * When fewer acknowledge, the operation fails with `store_unavailable` (a claim is then
   * released and its action never runs). Default: off (asynchronous replication).
   */
  readonly waitForReplicas?: ReplicaWait | null;
  /**
   * How long Redis keeps a COMPLETED/FAILED record after its expiresAt before dropping it itself
   * (PEXPIREAT). In between, an expired record is never replayed but still answers
   * `onExpired: 'reject'` and is visible to purgeExpired. PROCESSING records have no TTL: an
   * orphan stays for `listStuck` until it is reclaimed or force-released. Default 1 h.
   */
  readonly keepExpiredMs?: number;
  /** Longest wait for one record operation (plus the WAIT timeout in durable mode). Default 5 s. */
  readonly timeoutMs?: number;
  /** SCAN COUNT hint for size, listStuck and purgeExpired. Default 1000. */
  readonly scanCount?: number;
}

export interface RedisStore extends IdempotencyStore {
  readonly prefix: string;
  /** The Redis keys of one record (both in one hash slot): for tests and ops tooling. */
  keysOf(id: RecordId): RecordKeys;
}

export const DEFAULT_KEEP_EXPIRED_MS = 60 * 60 * 1000;
export const DEFAULT_TIMEOUT_MS = 5_000;

function resolvePort(client: unknown): RedisPort {
  if (isRedisPort(client)) return client;
  if (isIoRedis(client)) return ioredisPort(client);
  if (isNodeRedis(client)) return nodeRedisPort(client);
  throw new InvalidOptionsError('Option "client" must be an ioredis Redis/Cluster, a node-redis client, or a RedisPort.');
}

function resolveWait(wait: ReplicaWait | null | undefined): ReplicaWait | null {
  if (wait === undefined || wait === null) return null;
  return { count: positiveInteger('waitForReplicas.count', wait.count), timeoutMs: positiveInteger('waitForReplicas.timeoutMs', wait.timeoutMs) };
}

const replicationFailure = (wait: ReplicaWait, replicas: number | null) =>
  new Error(`WAIT: ${replicas ?? 0} of ${wait.count} replica(s) acknowledged the write within ${wait.timeoutMs} ms.`);

/**
 * Creates the Redis store over a client you own (the store never closes it).
 * @example
 * import { Redis } from 'ioredis';
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createRedisStore } from '@idempotency-builder/runtime/redis';
 * const store = createRedisStore({ client: new Redis(process.env.REDIS_URL), prefix: 'shop:idem:' });
 * const idempotency = createIdempotency({ store });
 */
export function createRedisStore({
  client,
  prefix,
  waitForReplicas,
  keepExpiredMs = DEFAULT_KEEP_EXPIRED_MS,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  scanCount = 1000,
}: RedisStoreOptions): RedisStore {
  const port = resolvePort(client);
  const layout = createKeyLayout(prefix);
  const wait = resolveWait(waitForReplicas);
  const keepMs = String(positiveInteger('keepExpiredMs', keepExpiredMs, { min: 0 }));
  const deadlineMs = positiveInteger('timeoutMs', timeoutMs) + (wait?.timeoutMs ?? 0);
  positiveInteger('scanCount', scanCount);
  let closed = false;

  /**
   * Bounds every operation and turns client failures into `store_unavailable` (fail closed). The
   * deadline is the engine's shared coarse timer, not a timer per call (see core/store-timeout.ts).
   */
  function guard<T>(operation: string, body: () => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError(operation, new Error('The Redis store is closed.')));
    return withStoreTimeout(operation, deadlineMs, body);
  }

  /** One script for one record, on the connection serving its slot, WAIT appended in durable mode. */
  const run = (keys: RecordKeys, script: LuaScript, scriptKeys: string[], args: readonly (string | Uint8Array)[], withWait = wait) =>
    runScripts((commands) => port.send(keys.record, commands), [{ script, keys: scriptKeys, args }], withWait);

  /** A fenced script answering 'applied' | 'lost'; in durable mode 'applied' also needs the replicas. */
  async function fenced(operation: string, id: RecordId, script: LuaScript, args: (string | Uint8Array)[], withFence = false): Promise<FencedResult> {
    const keys = layout.keysOf(id);
    const { replies, replicas } = await run(keys, script, withFence ? [keys.record, keys.fence] : [keys.record], args);
    const answer = replyText(replies[0]);
    if (answer !== 'applied' && answer !== 'lost') throw new Error(`${script.name} answered ${String(answer)}.`);
    if (answer === 'applied' && wait && (replicas ?? 0) < wait.count) {
      throw new StoreUnavailableError(operation, replicationFailure(wait, replicas));
    }
    return answer;
  }

  async function claim(input: ClaimInput): Promise<ClaimResult> {
    const keys = layout.keysOf(input);
    const args = [
      input.fingerprint,
      input.owner === null ? '0' : '1',
      input.owner ?? '',
      String(input.leaseMs),
      String(input.ttlMs),
      input.replaceExpired ? '1' : '0',
      input.key,
      input.scope,
    ];
    const { replies, replicas } = await run(keys, LUA_SCRIPTS.claim, [keys.record, keys.fence], args);
    const [outcome, ...rest] = replyArray(replies[0]);
    if (replyText(outcome) === 'existing') {
      const record = decodeRecord(replyArray(rest[1]));
      if (!record) throw new Error('The claim script returned an existing record without fields.');
      return { outcome: 'existing', record, now: replyNumber(rest[0]) };
    }
    const lockVersion = replyNumber(rest[0]);
    if (wait && (replicas ?? 0) < wait.count) {
      // Not durable: give the key back at once (best effort) rather than block retries for a lease.
      await run(keys, LUA_SCRIPTS.release, [keys.record, keys.fence], [String(lockVersion), keepMs], null).catch(() => undefined);
      throw new StoreUnavailableError('claim', replicationFailure(wait, replicas));
    }
    return {
      outcome: 'claimed',
      lockVersion,
      reclaimed: replyNumber(rest[1]) === 1,
      replacedExpired: replyNumber(rest[2]) === 1,
      lockedUntil: replyNumber(rest[3]),
    };
  }

  const finish = (operation: 'complete' | 'fail', script: LuaScript) => (input: FinishInput) =>
    guard(operation, () =>
      fenced(operation, input, script, [
        String(input.lockVersion),
        String(input.ttlMs),
        keepMs,
        input.response.encoding,
        input.response.body,
        input.response.statusCode === null ? '' : String(input.response.statusCode),
        input.response.headers === null ? '' : JSON.stringify(input.response.headers),
      ]),
    );

  async function listStuck(olderThanMs: number, limit: number): Promise<IdempotencyRecord[]> {
    const stuck: IdempotencyRecord[] = [];
    for (const node of await port.primaries()) {
      const cutoff = (await serverTime(node)) - olderThanMs;
      for await (const keys of scanKeys(node, layout.recordPattern, scanCount)) {
        // Status and lease first: finished records carry bodies that are not worth reading here.
        const leases = await node.pipeline(keys.map((key) => ['HMGET', key, 's', 'lu']));
        const candidates = keys.filter((_, i) => {
          const [status, lockedUntil] = replyArray(leases[i] instanceof Error ? [] : leases[i]!);
          return replyText(status) === 'PROCESSING' && replyNumber(lockedUntil) <= cutoff;
        });
        for (const { record } of await readRecords(node, candidates)) {
          if (record.status === 'PROCESSING' && (record.lockedUntil ?? 0) <= cutoff) stuck.push(record);
        }
      }
    }
    return stuck.sort((a, b) => (a.lockedUntil ?? 0) - (b.lockedUntil ?? 0)).slice(0, limit);
  }

  async function purgeExpired(batchSize: number): Promise<number> {
    let removed = 0;
    for (const node of await port.primaries()) {
      const now = await serverTime(node);
      for await (const keys of scanKeys(node, layout.recordPattern, scanCount)) {
        if (removed >= batchSize) return removed;
        const states = await node.pipeline(keys.map((key) => ['HMGET', key, 's', 'ea']));
        const expired = keys
          .filter((_, i) => {
            const [status, expiresAt] = replyArray(states[i] instanceof Error ? [] : states[i]!);
            const text = replyText(status);
            return text !== null && text !== 'PROCESSING' && replyNumber(expiresAt) <= now;
          })
          .slice(0, batchSize - removed);
        if (expired.length === 0) continue;
        // The script checks again atomically; a record finished or replaced meanwhile is kept.
        // No WAIT: a lost purge only means the record is purged again, or expires by itself.
        const { replies } = await runScripts(node.pipeline, expired.map((key) => ({ script: LUA_SCRIPTS.purge, keys: [key], args: [] })));
        removed += replies.filter((reply) => replyText(reply) === 'purged').length;
      }
    }
    return removed;
  }

  return {
    prefix: layout.prefix,
    keysOf: layout.keysOf,
    claim: (input) => guard('claim', () => claim(input)),
    complete: finish('complete', LUA_SCRIPTS.complete),
    fail: finish('fail', LUA_SCRIPTS.fail),
    release: (input) => guard('release', () => fenced('release', input, LUA_SCRIPTS.release, [String(input.lockVersion), keepMs], true)),
    extend: (input) =>
      guard('extend', () => fenced('extend', input, LUA_SCRIPTS.extend, [String(input.lockVersion), String(input.leaseMs), keepMs])),
    get: (id) =>
      guard('get', async () => {
        const { record } = layout.keysOf(id);
        const [result] = await port.send(record, [['HMGET', record, ...RECORD_FIELDS]]);
        if (result instanceof Error) throw result;
        return decodeRecord(replyArray(result));
      }),
    purgeExpired: (batchSize) => guard('purgeExpired', () => purgeExpired(batchSize)),
    listStuck: ({ olderThanMs, limit }) => guard('listStuck', () => listStuck(olderThanMs, limit)),
    forceRelease: (id) =>
      guard('forceRelease', async () => {
        const keys = layout.keysOf(id);
        const { replies, replicas } = await run(keys, LUA_SCRIPTS.forceRelease, [keys.record], []);
        const released = replyText(replies[0]) === 'applied';
        if (released && wait && (replicas ?? 0) < wait.count) throw new StoreUnavailableError('forceRelease', replicationFailure(wait, replicas));
        return released;
      }),
    size: () => guard('size', async () => countKeys(await port.primaries(), layout.recordPattern, scanCount)),
    now: () =>
      guard('now', async () => {
        const [first] = await port.primaries();
        if (!first) throw new Error('The Redis client lists no primary.');
        return serverTime(first);
      }),
    async close() {
      closed = true;
    },
  };
}
