/**
 * The ops commands against real stores — SQLite, PostgreSQL and Redis — the way an operator runs
 * them during an incident: find the orphan, look at it, release it, purge, count.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintFields, type IdempotencyStore } from '@idempotency-builder/runtime';
import { createPostgresStore } from '@idempotency-builder/runtime/postgres';
import { createRedisStore } from '@idempotency-builder/runtime/redis';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, printedJson } from './run-cli.js';
import { probeTcp, serviceAvailable } from '../../../runtime/test/support/services.js';

const pgUp = await serviceAvailable('PostgreSQL', () => probeTcp(5432));
const redisUp = await serviceAvailable('Redis', () => probeTcp(6379));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Target {
  readonly name: string;
  readonly skip: boolean;
  /** The flags that name this store on the command line. */
  readonly flags: string[];
  /** The same store, opened the way the service opens it. */
  open(): Promise<IdempotencyStore>;
  cleanup(): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'ops-'));
const schema = `ops_${randomUUID().slice(0, 8)}`;
const prefix = `ops-${randomUUID().slice(0, 8)}:`;
const targets: Target[] = [
  {
    name: 'SQLite',
    skip: false,
    flags: ['--store', `sqlite:${join(dir, 'idempotency.db')}`],
    open: async () => createSqliteStore({ filename: join(dir, 'idempotency.db') }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  },
  {
    name: 'PostgreSQL',
    skip: !pgUp,
    flags: ['--store', 'postgres://postgres@127.0.0.1:5432/test', '--schema', schema],
    async open() {
      const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'test', max: 2 });
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      const store = createPostgresStore({ db: pool, schema });
      await store.migrate();
      return { ...store, close: async () => { await store.close(); await pool.end(); } };
    },
    async cleanup() {
      const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'test' });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  },
  {
    name: 'Redis',
    skip: !redisUp,
    flags: ['--store', 'redis://127.0.0.1:6379', '--prefix', prefix],
    async open() {
      const client = new Redis({ host: '127.0.0.1', port: 6379 });
      const store = createRedisStore({ client, prefix });
      return { ...store, close: async () => { await store.close(); client.disconnect(); } };
    },
    async cleanup() {
      const client = new Redis({ host: '127.0.0.1', port: 6379 });
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    },
  },
];

afterAll(async () => {
  for (const target of targets) if (!target.skip) await target.cleanup();
});

describe.each(targets)('ops commands on $name', (target) => {
  it.skipIf(target.skip)('finds an orphan, shows it without its body, releases it, purges and counts', async () => {
    const store = await target.open();
    const fingerprint = fingerprintFields(['4999', 'EUR']);
    const base = { fingerprint, owner: null, ttlMs: 60_000, replaceExpired: true };
    // An orphan: claimed with a short lease by a "worker" that never finishes.
    const orphan = await store.claim({ ...base, key: 'pay_orphan', scope: 'user-1', leaseMs: 10 });
    expect(orphan.outcome).toBe('claimed');
    // A finished record that has already expired, and a live one.
    const done = await store.claim({ ...base, key: 'pay_done', scope: 'user-1', leaseMs: 5_000, ttlMs: 10 });
    if (done.outcome !== 'claimed') throw new Error('expected a claim');
    const body = new TextEncoder().encode('{"card":"4242"}');
    await store.complete({ key: 'pay_done', scope: 'user-1', lockVersion: done.lockVersion, ttlMs: 10, response: { statusCode: 201, headers: null, body, encoding: 'json' } });
    await sleep(1_100); // SQLite and Redis clocks resolve in ms, but let both short windows pass clearly

    const stuck = await cli('stuck', ...target.flags, '--json');
    expect(stuck.code, stuck.stderr).toBe(0);
    const listed = printedJson<{ key: string; status: string; leaseRemainingMs: number }[]>(stuck);
    expect(listed.map((r) => r.key)).toEqual(['pay_orphan']);
    expect(listed[0]!.leaseRemainingMs).toBeLessThan(0);

    const shown = await cli('show', 'pay_done', '--scope', 'user-1', ...target.flags);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('status       COMPLETED');
    expect(shown.stdout).not.toContain('4242'); // the body only with --show-body
    const withBody = await cli('show', 'pay_done', '--scope', 'user-1', '--show-body', '--json', ...target.flags);
    expect(printedJson<{ response: unknown }>(withBody).response).toMatchObject({ statusCode: 201, body: '{"card":"4242"}', bodyEncoding: 'utf8' });
    expect((await cli('show', 'pay_none', '--scope', 'user-1', ...target.flags)).code).toBe(1);

    const released = await cli('release', 'pay_orphan', '--scope', 'user-1', ...target.flags);
    expect(released.code, released.stderr).toBe(0);
    // The released record's old holder is fenced out.
    if (orphan.outcome !== 'claimed') throw new Error('expected a claim');
    expect(await store.complete({ key: 'pay_orphan', scope: 'user-1', lockVersion: orphan.lockVersion, ttlMs: 60_000, response: { statusCode: 201, headers: null, body, encoding: 'json' } })).toBe('lost');
    // What `stuck` lists after a release, as the command says: the same record, its version bumped,
    // until the same intent's retry takes it over.
    const after = printedJson<{ key: string; lockVersion: number }[]>(await cli('stuck', ...target.flags, '--json'));
    expect(after).toEqual([expect.objectContaining({ key: 'pay_orphan', lockVersion: orphan.lockVersion + 1 })]);
    expect(released.stdout).toMatch(/keeps listing it/);
    const retry = await store.claim({ ...base, key: 'pay_orphan', scope: 'user-1', leaseMs: 5_000 });
    expect(retry).toMatchObject({ outcome: 'claimed', reclaimed: true });
    expect(printedJson(await cli('stuck', ...target.flags, '--json'))).toEqual([]);
    // Nothing to release in another scope.
    expect((await cli('release', 'pay_orphan', '--scope', 'user-2', ...target.flags)).code).toBe(1);

    const purged = await cli('purge', ...target.flags, '--json');
    expect(printedJson(purged)).toMatchObject({ purged: 1 });
    expect(await store.get({ key: 'pay_done', scope: 'user-1' })).toBeNull();

    const stats = await cli('stats', ...target.flags, '--json');
    expect(stats.code, stats.stderr).toBe(0);
    expect(printedJson(stats)).toMatchObject({ records: expect.any(Number), stuck: expect.any(Number) });
    expect(stats.stdout).not.toMatch(/password/);
    await store.close();
  }, 30_000);
});

describe('ops commands: a store that cannot be used', () => {
  it('names the missing store, a bad scheme and a bad flag in one line, exit code 2, without a stack trace', async () => {
    const env = process.env.IDEMPOTENCY_STORE_URL;
    delete process.env.IDEMPOTENCY_STORE_URL;
    try {
      const none = await cli('stuck');
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/--store <url>/);
      const scheme = await cli('stats', '--store', 'mongodb://127.0.0.1/x');
      expect(scheme.stderr).toMatch(/Unsupported store URL scheme "mongodb"/);
      const bad = await cli('stuck', '--store', `sqlite:${join(tmpdir(), 'no-such-dir', 'x.db')}`);
      expect(bad.code).toBe(2);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
      const limit = await cli('stuck', '--store', `sqlite:${join(tmpdir(), 'x.db')}`, '--limit', 'many');
      expect(limit.code).toBe(2);
    } finally {
      if (env !== undefined) process.env.IDEMPOTENCY_STORE_URL = env;
    }
  });
});
