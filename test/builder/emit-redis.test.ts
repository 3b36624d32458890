/**
 * The generated Redis Lua scripts on the real server: one claim among many concurrent claimers,
 * reclaim only after the lease and only with the same fingerprint, fenced finish/release/extend,
 * the runbook's manual release, and PEXPIREAT at the record's expiry.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisRecordKey, redisScripts } from '../../src/builder/emit/ddl/redis.js';
import { probeTcp, serviceAvailable } from '../support/services.js';

const up = await serviceAvailable('Redis', () => probeTcp(6379));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!up)('Redis: the generated Lua scripts on a real server', () => {
  const client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  const prefix = `builder-test-${randomUUID().slice(0, 8)}`;
  const scripts = Object.fromEntries(redisScripts().map((s) => [s.name, s.source]));
  const run = (name: string, key: string, ...args: (string | number)[]) => client.eval(scripts[name] as string, 1, key, ...args) as Promise<unknown>;

  afterAll(async () => {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
  });

  it('claims once among 50 concurrent claimers; the record expires at expires_at', async () => {
    const key = redisRecordKey(prefix, 'usr-1', `createPayment_${randomUUID()}`);
    const replies = (await Promise.all(Array.from({ length: 50 }, () => run('claim', key, 'a'.repeat(64), 30_000, 60_000)))) as unknown[][];
    expect(replies.filter((r) => r[0] === 'claimed')).toHaveLength(1);
    const existing = replies.filter((r) => r[0] === 'existing');
    expect(existing).toHaveLength(49);
    expect(existing[0]?.[1]).toBe('PROCESSING');
    const pttl = await client.pttl(key);
    expect(pttl).toBeGreaterThan(55_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });

  it('reclaims an orphan after its lease (same fingerprint only), and fences the old holder out', async () => {
    const key = redisRecordKey(prefix, 'usr:with:colons', `createPayment_${randomUUID()}`);
    expect(await run('claim', key, 'a'.repeat(64), 50, 60_000)).toEqual(['claimed', 1, expect.any(Number)]);
    expect((await run('claim', key, 'a'.repeat(64), 30_000, 60_000) as unknown[])[0]).toBe('existing');
    await sleep(80);
    expect((await run('claim', key, 'b'.repeat(64), 30_000, 60_000) as unknown[])[0]).toBe('existing');
    const reclaims = (await Promise.all(Array.from({ length: 20 }, () => run('claim', key, 'a'.repeat(64), 30_000, 60_000)))) as unknown[][];
    expect(reclaims.filter((r) => r[0] === 'claimed')).toEqual([['claimed', 2, expect.any(Number)]]);
    expect(await run('extend', key, 1, 30_000)).toBe(0);
    expect(await run('finish', key, 1, 'COMPLETED', 201, '{"id":"stale"}', 60_000)).toBe(0);
    expect(await run('release', key, 1)).toBe(0);
    expect(await run('extend', key, 2, 30_000)).toBeGreaterThan(0);
    expect(await run('finish', key, 2, 'COMPLETED', 201, '{"id":"pay_1"}', 60_000)).toBe(1);
    const replay = (await run('claim', key, 'a'.repeat(64), 30_000, 60_000)) as unknown[];
    expect(replay.slice(0, 3)).toEqual(['existing', 'COMPLETED', 2]);
    expect(replay[7]).toBe('{"id":"pay_1"}');
  });

  it('releases on a transient failure and force-releases for the runbook', async () => {
    const key = redisRecordKey(prefix, 'usr-1', `createPayment_${randomUUID()}`);
    await run('claim', key, 'a'.repeat(64), 30_000, 60_000);
    expect(await run('release', key, 1)).toBe(1);
    expect(await client.exists(key)).toBe(0);
    await run('claim', key, 'a'.repeat(64), 30_000, 60_000);
    expect(await run('force_release', key)).toBe(2);
    expect((await run('claim', key, 'a'.repeat(64), 30_000, 60_000) as unknown[]).slice(0, 2)).toEqual(['claimed', 3]);
  });

  it('keeps scopes apart even when they contain the separator', () => {
    expect(redisRecordKey('idem', 'a:b', 'c')).not.toBe(redisRecordKey('idem', 'a', 'b:c'));
  });
});
