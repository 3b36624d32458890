/**
 * Walks the store's records with SCAN, server by server (a cluster's primaries each hold their
 * own slots), for the whole-store questions: size, stuck leases, purge. Never KEYS, which
 * blocks the server for the whole keyspace.
 */
import type { IdempotencyRecord } from '../../core/record.js';
import type { RedisNodePort, RedisResult } from './client-port.js';
import { decodeRecord, RECORD_FIELDS, replyArray, replyNumber, replyText } from './record-codec.js';

const check = (result: RedisResult | undefined) => {
  if (result instanceof Error) throw result;
  if (result === undefined) throw new Error('Redis sent no reply.');
  return result;
};

/**
 * Yields the keys matching `pattern` on one server, one SCAN page at a time. SCAN returns every
 * key present for the whole walk at least once; a key may come twice while the server resizes
 * its table, so callers that count must de-duplicate.
 * @example for await (const keys of scanKeys(node, 'idem:r:{*', 1000)) console.log(keys.length);
 */
export async function* scanKeys(node: RedisNodePort, pattern: string, count: number): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [result] = await node.pipeline([['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(count)]]);
    const [nextCursor, keys] = replyArray(check(result));
    cursor = replyText(nextCursor) ?? '0';
    const page = replyArray(keys).map((key) => replyText(key) ?? '');
    if (page.length > 0) yield page;
  } while (cursor !== '0');
}

/** The server's clock in ms (TIME), for comparisons made outside a script. */
export async function serverTime(node: RedisNodePort): Promise<number> {
  const [result] = await node.pipeline([['TIME']]);
  const [seconds, micros] = replyArray(check(result));
  return replyNumber(seconds) * 1000 + Math.floor(replyNumber(micros) / 1000);
}

/** Reads records by key name on one server, pipelined; keys that vanished meanwhile are left out. */
export async function readRecords(node: RedisNodePort, keys: readonly string[]): Promise<{ redisKey: string; record: IdempotencyRecord }[]> {
  if (keys.length === 0) return [];
  const results = await node.pipeline(keys.map((key) => ['HMGET', key, ...RECORD_FIELDS]));
  const found: { redisKey: string; record: IdempotencyRecord }[] = [];
  for (const [index, result] of results.entries()) {
    const record = decodeRecord(replyArray(check(result)));
    if (record) found.push({ redisKey: keys[index]!, record });
  }
  return found;
}

/** Above this many records, size() stops de-duplicating (memory) and counts SCAN's answers as given. */
export const EXACT_SIZE_LIMIT = 1_000_000;

/**
 * Counts the keys matching `pattern` on every server. Exact for keys that exist during the whole
 * walk up to `EXACT_SIZE_LIMIT` per server; past it an estimate that may over-count keys SCAN
 * returned twice during a table resize.
 * @example await countKeys(await port.primaries(), 'idem:r:{*', 1000)
 */
export async function countKeys(nodes: readonly RedisNodePort[], pattern: string, count: number): Promise<number> {
  let total = 0;
  for (const node of nodes) {
    const seen = new Set<string>();
    let uncounted = 0;
    for await (const keys of scanKeys(node, pattern, count)) {
      for (const key of keys) {
        if (seen.size < EXACT_SIZE_LIMIT) seen.add(key);
        else if (!seen.has(key)) uncounted++;
      }
    }
    total += seen.size + uncounted;
  }
  return total;
}
