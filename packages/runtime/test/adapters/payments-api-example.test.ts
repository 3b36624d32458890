/**
 * examples/payments-api, started the way a newcomer starts it (`tsx examples/payments-api/server.ts`)
 * as a child process: concurrent duplicates write exactly one payment row. SQLite in a temp file;
 * then Redis + PostgreSQL (a throwaway database) when those servers are reachable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { probeTcp, serviceAvailable } from '../support/services.js';

/** The repository root: the example is started from there, the way its README says. */
const REPO = join(import.meta.dirname, '..', '..', '..', '..');

interface Running {
  readonly url: string;
  stop(): Promise<void>;
}

async function startExample(env: Record<string, string>): Promise<Running> {
  const child: ChildProcess = spawn(join(REPO, 'node_modules', '.bin', 'tsx'), [join(REPO, 'examples/payments-api/server.ts')], {
    cwd: REPO,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the example exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const pay = (url: string, key: string, token = 'tok_alice', amount = 4999) =>
  fetch(`${url}/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, currency: 'EUR', recipient_id: 'acct_42' }),
  });

const listPayments = async (url: string, token = 'tok_alice') =>
  ((await (await fetch(`${url}/payments`, { headers: { authorization: `Bearer ${token}` } })).json()) as { payments: { id: string }[] }).payments;

/** 40 concurrent duplicates, then a retry: one 201 that ran, the rest 409 or the replay. */
async function duplicatesWriteOneRow(url: string): Promise<string> {
  const key = randomUUID();
  const responses = await Promise.all(Array.from({ length: 40 }, () => pay(url, key)));
  const statuses = responses.map((response) => response.status);
  expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
  const fresh = responses.filter((response) => response.status === 201 && !response.headers.has('idempotent-replayed'));
  expect(fresh).toHaveLength(1);
  const created = (await fresh[0]!.json()) as { id: string };
  const retry = await pay(url, key);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(((await retry.json()) as { id: string }).id).toBe(created.id);
  expect((await pay(url, key, 'tok_alice', 1)).status).toBe(409); // same key, other amount
  return created.id;
}

describe('examples/payments-api on SQLite (the default)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payments-api-'));
  const file = join(dir, 'payments.db');
  let running: Running | undefined;
  afterAll(async () => {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts in one command and writes exactly one payment row for concurrent duplicates', async () => {
    running = await startExample({ SQLITE_FILE: file });
    const id = await duplicatesWriteOneRow(running.url);
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT id FROM payments').all() as { id: string }[];
    db.close();
    expect(rows).toEqual([{ id }]);
    expect((await listPayments(running.url)).map((payment) => payment.id)).toEqual([id]);
    expect(await listPayments(running.url, 'tok_bob')).toEqual([]);
    expect((await pay(running.url, randomUUID(), 'tok_unknown')).status).toBe(401);
  }, 60_000);

  it('stores payment responses encrypted: no amount, recipient or id in plaintext at rest', async () => {
    const db = new Database(file, { readonly: true });
    const rows = db.prepare("SELECT response_encoding, response_headers, response_body FROM idempotency_store WHERE status = 'COMPLETED'").all() as {
      response_encoding: string;
      response_headers: string | null;
      response_body: Buffer;
    }[];
    db.close();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.response_encoding).toMatch(/^aes-256-gcm/);
      expect(row.response_headers).toBeNull();
      expect(row.response_body.toString('latin1')).not.toMatch(/acct_42|4999|pay_/);
    }
  });

  it('answers invalid JSON and an oversized body with problem+json, never an HTML stack trace (#11)', async () => {
    const post = (body: string) =>
      fetch(`${running!.url}/payments`, {
        method: 'POST',
        headers: { authorization: 'Bearer tok_alice', 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
        body,
      });
    for (const [body, status, code] of [
      ['{"amount": 49', 400, 'invalid_body'],
      [JSON.stringify({ amount: 1, currency: 'EUR', recipient_id: 'acct_42', memo: 'x'.repeat(200_000) }), 413, 'body_too_large'],
    ] as const) {
      const response = await post(body);
      const text = await response.text();
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((JSON.parse(text) as { code: string }).code).toBe(code);
      expect(text).not.toMatch(/<html|<pre>|\n\s+at |SyntaxError/i);
    }
  });
});

const pgUp = await serviceAvailable('PostgreSQL', () => probeTcp(5432));
const redisUp = await serviceAvailable('Redis', () => probeTcp(6379));

describe.skipIf(!pgUp || !redisUp)('examples/payments-api on PostgreSQL and Redis', () => {
  const database = `payments_example_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
  const started: Running[] = [];
  afterAll(async () => {
    for (const running of started) await running.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it('keeps one row per key with DATABASE_URL (PostgreSQL store) and with REDIS_URL (Redis store)', async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const databaseUrl = `postgresql://postgres@127.0.0.1:5432/${database}`;
    const key = { IDEMPOTENCY_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const onPostgres = await startExample({ DATABASE_URL: databaseUrl, ...key });
    started.push(onPostgres);
    const onRedis = await startExample({ DATABASE_URL: databaseUrl, REDIS_URL: 'redis://127.0.0.1:6379', ...key });
    started.push(onRedis);
    const first = await duplicatesWriteOneRow(onPostgres.url);
    const second = await duplicatesWriteOneRow(onRedis.url);
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const { rows } = await check.query<{ id: string }>('SELECT id FROM payments ORDER BY id');
    await check.end();
    expect(rows.map((row) => row.id).sort()).toEqual([first, second].sort());
  }, 90_000);
});
