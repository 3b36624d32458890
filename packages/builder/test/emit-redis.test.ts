/**
 * The generated Redis Lua scripts on the real server: one claim among many concurrent claimers,
 * reclaim only after the lease and only with the same fingerprint, fenced finish/release/extend,
 * the runbook's manual release, and PEXPIREAT at the record's expiry.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisRecordKey, redisScripts } from '../src/emit/ddl/redis.js';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';

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
    const first = (await run('claim', key, 'a'.repeat(64), 50, 60_000)) as [string, number, number, number];
    expect(first).toEqual(['claimed', expect.any(Number), expect.any(Number), 0]);
    const v1 = first[1];
    expect(Math.abs(v1 - Date.now())).toBeLessThan(60_000); // the server clock in ms, not 1
    expect((await run('claim', key, 'a'.repeat(64), 30_000, 60_000) as unknown[])[0]).toBe('existing');
    await sleep(80);
    expect((await run('claim', key, 'b'.repeat(64), 30_000, 60_000) as unknown[])[0]).toBe('existing');
    const reclaims = (await Promise.all(Array.from({ length: 20 }, () => run('claim', key, 'a'.repeat(64), 30_000, 60_000)))) as unknown[][];
    expect(reclaims.filter((r) => r[0] === 'claimed')).toEqual([['claimed', v1 + 1, expect.any(Number), 1]]);
    expect(await run('extend', key, v1, 30_000)).toBe(0);
    expect(await run('finish', key, v1, 'COMPLETED', 201, '{"id":"stale"}', 60_000)).toBe(0);
    expect(await run('release', key, v1)).toBe(0);
    expect(await run('extend', key, v1 + 1, 30_000)).toBeGreaterThan(0);
    expect(await run('finish', key, v1 + 1, 'COMPLETED', 201, '{"id":"pay_1"}', 60_000)).toBe(1);
    const replay = (await run('claim', key, 'a'.repeat(64), 30_000, 60_000)) as unknown[];
    expect(replay.slice(0, 3)).toEqual(['existing', 'COMPLETED', v1 + 1]);
    expect(replay[7]).toBe('{"id":"pay_1"}');
  });

  it('releases on a transient failure and force-releases for the runbook', async () => {
    const key = redisRecordKey(prefix, 'usr-1', `createPayment_${randomUUID()}`);
    const [, held] = (await run('claim', key, 'a'.repeat(64), 30_000, 60_000)) as [string, number];
    expect(await run('release', key, held - 1)).toBe(0);
    expect(await run('release', key, held)).toBe(1);
    expect(await client.exists(key)).toBe(0);
    await sleep(5);
    const [, fresh] = (await run('claim', key, 'a'.repeat(64), 30_000, 60_000)) as [string, number];
    expect(fresh).toBeGreaterThan(held); // a released key's next incarnation starts at the clock, above the old token
    expect(await run('force_release', key)).toBe(fresh + 1);
    expect((await run('claim', key, 'a'.repeat(64), 30_000, 60_000) as unknown[]).slice(0, 4)).toEqual(['claimed', fresh + 2, expect.any(Number), 1]);
    // The fenced scripts compare the token as text: a 13-digit token must round-trip exactly.
    expect(await run('finish', key, fresh + 2, 'COMPLETED', 201, '{}', 1)).toBe(1);
  });

  it('replaces an expired record with max(lock_version + 1, now)', async () => {
    const key = redisRecordKey(prefix, 'usr-1', `createPayment_${randomUUID()}`);
    const [, held] = (await run('claim', key, 'a'.repeat(64), 30_000, 60_000)) as [string, number];
    const ahead = held + 86_400_000;
    await client.hset(key, 'lv', String(ahead)); // a token pushed ahead of the clock
    expect(await run('finish', key, ahead, 'COMPLETED', 201, '{}', 60_000)).toBe(1);
    // Retention over (exp in the past) while Redis has not yet dropped the key: the script decides.
    await client.hset(key, 'exp', String(held));
    const replaced = (await run('claim', key, 'b'.repeat(64), 30_000, 60_000)) as unknown[];
    expect(replaced.slice(0, 2)).toEqual(['claimed', ahead + 1]);
  });

  it('keeps scopes apart even when they contain the separator', () => {
    expect(redisRecordKey('idem', 'a:b', 'c')).not.toBe(redisRecordKey('idem', 'a', 'b:c'));
  });
});
