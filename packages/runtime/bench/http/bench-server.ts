/**
 * The server side of bench/http.bench.ts, run as its own process (so the load generator does not
 * share its event loop): Express 5 with the same handler unprotected and behind
 * idempotencyMiddleware, over the store named in argv[2]. Reports its port over IPC.
 *
 * Routes: POST /plain (no middleware), POST /protected, POST /hold (protected; the handler waits
 * until POST /release, so its key stays in progress), POST /release.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Request, type Response } from 'express';
import { idempotencyMiddleware } from '../../src/adapters/express/index.js';
import { createIdempotency, type IdempotencyStore } from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

export type BenchStoreKind = 'memory' | 'sqlite' | 'postgres' | 'redis';

async function openStore(kind: BenchStoreKind): Promise<{ store: IdempotencyStore; cleanup(): Promise<void> }> {
  if (kind === 'memory') return { store: createMemoryStore(), cleanup: async () => {} };
  if (kind === 'sqlite') {
    const { createSqliteStore } = await import('../../src/stores/sqlite/index.js');
    const store = createSqliteStore({ filename: join(mkdtempSync(join(tmpdir(), 'http-bench-')), 'idem.db') });
    await store.ready;
    return { store, cleanup: async () => {} };
  }
  if (kind === 'postgres') {
    const [{ createPostgresStore }, { default: pg }] = await Promise.all([import('../../src/stores/postgres/index.js'), import('pg')]);
    const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'test', max: 16 });
    const schema = `bench_http_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    const store = createPostgresStore({ db: pool, schema });
    await store.migrate();
    return {
      store,
      cleanup: async () => {
        await pool.query(`DROP SCHEMA ${schema} CASCADE`);
        await pool.end();
      },
    };
  }
  const [{ createRedisStore }, { Redis }] = await Promise.all([import('../../src/stores/redis/index.js'), import('ioredis')]);
  const client = new Redis({ host: '127.0.0.1', port: 6379 });
  const prefix = `bench-http-${randomUUID().slice(0, 8)}:`;
  return {
    store: createRedisStore({ client, prefix }),
    cleanup: async () => {
      for await (const keys of client.scanStream({ match: `*${prefix}*`, count: 1000 })) if ((keys as string[]).length) await client.del(...(keys as string[]));
      client.disconnect();
    },
  };
}

const kind = process.argv[2] as BenchStoreKind;
const { store, cleanup } = await openStore(kind);
const idempotency = createIdempotency({ store, leaseMs: 30_000, ttlMs: 600_000 });
const protect = idempotencyMiddleware({ idempotency, scope: (req) => req.headers['x-user'] as string | undefined });

const app = express();
app.use(express.json());
const handler = (req: Request, res: Response) => {
  res.status(201).json({ id: 'pay_1', amount: (req.body as { amount?: number }).amount, currency: 'EUR' });
};
let releaseHold: () => void = () => {};
app.post('/plain', handler);
app.post('/protected', protect, handler);
app.post('/hold', protect, async (req, res) => {
  await new Promise<void>((resolve) => (releaseHold = resolve));
  handler(req, res);
});
app.post('/release', (_req, res) => {
  releaseHold();
  res.status(204).end();
});

const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message !== 'stop') return;
  server.closeAllConnections();
  server.close(() => void Promise.all([store.close(), cleanup()]).finally(() => process.exit(0)));
});
