/**
 * Memory soak (a bench flag, not CI): drives IDEMPOTENCY_BENCH_SOAK_KEYS distinct keys (default
 * 10^6) through the engine on each store reachable here, with a short ttl and the store's
 * cleanup job running so records expire and get purged, and samples the process RSS (after a
 * full GC) every tenth of the run. Goal: RSS flat within ±10 % of the first sample.
 * Each store runs in a process of its own: in a shared one, the native memory a store before it
 * left behind (driver buffers, allocator arenas) moved the next store's RSS (PostgreSQL ±16 % after
 * memory and SQLite in one process at load 20, ±3.6 % alone at load 1).
 *
 *   IDEMPOTENCY_BENCH_SOAK=1 npx tsx bench/run.ts soak
 *   IDEMPOTENCY_BENCH_SOAK_STORES=memory,sqlite (default: every store), IDEMPOTENCY_BENCH_SOAK_KEYS=100000
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CleanupJob, IdempotencyStore } from '@idempotency-builder/runtime';
import type { BenchSuite, Reporter } from './harness.js';
import { importRuntime, runtimeSource } from './runtime-import.js';
import { probeTcp } from '../test/support/services.js';
import { startDynalite } from './dynalite.js';

const KEYS = Number(process.env.IDEMPOTENCY_BENCH_SOAK_KEYS ?? 1_000_000);
const SAMPLES = 10;
const CONCURRENCY = 32;
/** Short enough that most of the run's records expire and are purged while it runs. */
const TTL_MS = 1_000;
const CLEANUP_INTERVAL_MS = 1_000;
const MB = 1024 * 1024;

type Root = typeof import('@idempotency-builder/runtime');

interface Subject {
  readonly store: IdempotencyStore;
  /** The store's cleanup job, or none where the store's own expiry does that work (DynamoDB TTL). */
  readonly cleanup: CleanupJob | null;
  close(): Promise<void>;
}

/** A full collection before each sample: without it RSS shows garbage not yet collected. */
function collector(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

const reachable = (port: number) => probeTcp(port).then(() => null, (error: Error) => `not reachable on ${port} (${error.message})`);

/** Every store the soak knows, each with why it cannot run here (or null) and how to open it. */
const STORES: Record<string, { available(): Promise<string | null>; open(root: Root, dir: string): Promise<Subject> }> = {
  memory: {
    available: async () => null,
    async open(root) {
      const { createMemoryStore } = await importRuntime<typeof import('@idempotency-builder/runtime/memory')>('memory');
      const store = createMemoryStore();
      return { store, cleanup: root.startCleanup({ store, intervalMs: CLEANUP_INTERVAL_MS }), close: async () => {} };
    },
  },
  sqlite: {
    available: async () => null,
    async open(root, dir) {
      const { createSqliteStore } = await importRuntime<typeof import('@idempotency-builder/runtime/sqlite')>('sqlite');
      // NORMAL: the soak is about memory; FULL would spend the run waiting for fsyncs.
      const store = createSqliteStore({ filename: join(dir, 'soak.db'), synchronous: 'NORMAL' });
      await store.ready;
      return { store, cleanup: root.startCleanup({ store, intervalMs: CLEANUP_INTERVAL_MS }), close: () => store.close() };
    },
  },
  postgres: {
    available: () => reachable(5432),
    async open() {
      const pg = (await import('pg')).default;
      const { createPostgresStore, startPostgresCleanup } = await importRuntime<typeof import('@idempotency-builder/runtime/postgres')>('postgres');
      const pool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: CONCURRENCY });
      const schema = `bench_soak_${process.pid}`;
      const store = createPostgresStore({ db: pool, schema, preparedStatements: true });
      await store.migrate();
      const cleanup = startPostgresCleanup({ store, ttlMs: TTL_MS, intervalMs: CLEANUP_INTERVAL_MS });
      return {
        store,
        cleanup,
        async close() {
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
          await pool.end();
        },
      };
    },
  },
  redis: {
    available: () => reachable(6379),
    async open(root) {
      const { Redis } = await import('ioredis');
      const { createRedisStore } = await importRuntime<typeof import('@idempotency-builder/runtime/redis')>('redis');
      const client = new Redis({ host: '127.0.0.1', port: 6379, enableAutoPipelining: true });
      const prefix = `soak:${process.pid}:`;
      // Redis drops expired records itself (keepExpiredMs after expiry); the job sweeps the rest.
      const store = createRedisStore({ client, prefix, keepExpiredMs: TTL_MS });
      return {
        store,
        cleanup: root.startCleanup({ store, intervalMs: CLEANUP_INTERVAL_MS }),
        async close() {
          for (let cursor = '0'; ; ) {
            const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
            if (keys.length > 0) await client.unlink(...keys);
            if ((cursor = next) === '0') break;
          }
          client.disconnect();
        },
      };
    },
  },
  mysql: {
    available: () => reachable(3306),
    async open(root) {
      const mysql = (await import('mysql2/promise')).default;
      const { createMysqlStore } = await importRuntime<typeof import('@idempotency-builder/runtime/mysql')>('mysql');
      const pool = mysql.createPool({ host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test', connectionLimit: CONCURRENCY });
      const table = `bench_soak_${process.pid}`;
      const store = createMysqlStore({ db: pool, table });
      await store.migrate();
      return {
        store,
        cleanup: root.startCleanup({ store, intervalMs: CLEANUP_INTERVAL_MS }),
        async close() {
          await pool.query(`DROP TABLE IF EXISTS ${store.table}, \`${table}_migrations\``).catch(() => {});
          await pool.end();
        },
      };
    },
  },
  dynamodb: {
    // Dynalite is a dev dependency; it runs in a child process, so its memory is not measured.
    // No cleanup job: on DynamoDB, TTL deletes records (docs/stores/dynamodb.md) and a purge is
    // a table Scan. Dynalite has no TTL, so its table grows; this process holds none of it.
    available: async () => null,
    async open() {
      const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
      const { DynamoDBDocument } = await import('@aws-sdk/lib-dynamodb');
      const { createDynamoDbStore, createDynamoDbTable } = await importRuntime<typeof import('@idempotency-builder/runtime/dynamodb')>('dynamodb');
      const { endpoint, child } = await startDynalite();
      const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'soak', secretAccessKey: 'soak' } });
      const table = 'soak_idempotency';
      await createDynamoDbTable(client, { table });
      const store = createDynamoDbStore({ client: DynamoDBDocument.from(client, { marshallOptions: { removeUndefinedValues: true } }), table, clockSkewMs: 0 });
      return {
        store,
        cleanup: null,
        async close() {
          client.destroy();
          child.kill();
        },
      };
    },
  },
};

async function soak(report: Reporter, name: string, root: Root, dir: string): Promise<void> {
  const subject = await STORES[name]!.open(root, dir);
  const gc = collector();
  const idempotency = root.createIdempotency({ store: subject.store, leaseMs: TTL_MS, ttlMs: TTL_MS });
  const fingerprint = root.fingerprintFields([4999, 'EUR', 'acct_xyz']);
  const every = Math.max(1, Math.floor(KEYS / SAMPLES));
  const samples: { keys: number; rssMb: number; heapMb: number; heapTotalMb: number; externalMb: number; size: number; seconds: number }[] = [];
  const started = performance.now();
  let next = 0;
  let sampling: Promise<void> = Promise.resolve();
  const sample = async (keys: number) => {
    gc?.();
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const size = await subject.store.size().catch(() => Number.NaN);
    const s = { keys, rssMb: rss / MB, heapMb: heapUsed / MB, heapTotalMb: heapTotal / MB, externalMb: external / MB, size, seconds: (performance.now() - started) / 1000 };
    samples.push(s);
    // Printed as taken, so an interrupted soak still shows its trend.
    report.line(`| ${s.keys.toLocaleString('en-US')} | ${s.seconds.toFixed(0)} | ${s.rssMb.toFixed(1)} | ${s.heapMb.toFixed(1)} | ${s.heapTotalMb.toFixed(1)} | ${s.externalMb.toFixed(1)} | ${s.size} |`);
  };
  report.line(`\n${name}: gc ${gc ? 'before each sample' : 'not available'}`);
  // heap committed = what V8 holds from the OS for its heap (used or not); external = memory V8
  // accounts outside its heap (Buffers, ArrayBuffers). RSS beyond both is the allocator's, the
  // drivers' native code and data, and Node's own.
  report.line('| keys | s | RSS MB | heap used MB | heap committed MB | external MB | records stored |');
  report.line('|---:|---:|---:|---:|---:|---:|---:|');
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < KEYS; i = next++) {
          // A request arrives as I/O, on a turn of the event loop: without this, a store that
          // answers in microtasks (memory) would starve every timer, the cleanup job's included.
          await new Promise((resolve) => setImmediate(resolve));
          await idempotency.run({ key: `soak-${i}`, scope: 'soak', fingerprint }, () => ({ id: i, amount: 4999 }));
          // One sample per tenth, taken by whichever worker crosses the mark; the others keep going.
          if ((i + 1) % every === 0) sampling = sampling.then(() => sample(i + 1));
        }
      }),
    );
    await sampling;
  } finally {
    await subject.cleanup?.stop();
    await subject.close();
  }
  const first = samples[0]!;
  const rss = samples.map((s) => s.rssMb);
  const max = Math.max(...rss);
  const min = Math.min(...rss);
  const spread = spreadFromFirst(rss);
  // The first tenth also holds the warm-up (JIT, pool connections, allocator arenas filling): its
  // sample was the peak in MySQL and DynamoDB runs. Shown beside the goal's figure, not instead.
  const steadySpread = spreadFromFirst(rss.slice(1));
  const seconds = (performance.now() - started) / 1000;
  report.line(
    `${name}: ${KEYS.toLocaleString('en-US')} keys in ${seconds.toFixed(0)} s (${(KEYS / seconds).toFixed(0)} keys/s); RSS first ${first.rssMb.toFixed(1)} MB, last ${rss.at(-1)!.toFixed(1)} MB, max ${max.toFixed(1)} MB, min ${min.toFixed(1)} MB; ` +
      `spread ±${(spread * 100).toFixed(1)} % of the first sample (goal ±10 %: ${spread <= 0.1 ? 'met' : 'NOT met'}); ` +
      `after the first tenth ±${(steadySpread * 100).toFixed(1)} % of the second sample; ` +
      // The JS heap tells a leak in our code from allocator noise in RSS (native buffers, arenas).
      `heap used first ${first.heapMb.toFixed(1)} MB, last ${samples.at(-1)!.heapMb.toFixed(1)} MB, max ${Math.max(...samples.map((s) => s.heapMb)).toFixed(1)} MB; ` +
      `heap committed first ${first.heapTotalMb.toFixed(1)} MB, min ${Math.min(...samples.map((s) => s.heapTotalMb)).toFixed(1)} MB, max ${Math.max(...samples.map((s) => s.heapTotalMb)).toFixed(1)} MB; ` +
      `external first ${first.externalMb.toFixed(1)} MB, max ${Math.max(...samples.map((s) => s.externalMb)).toFixed(1)} MB`,
  );
}

/** The largest distance of any value from the first, as a share of the first (0 for none). */
function spreadFromFirst(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const first = values[0]!;
  return Math.max(Math.max(...values) - first, first - Math.min(...values)) / first;
}

/** Runs one store's soak in a fresh process (this same bench, one store), relaying its lines. */
async function inChild(report: Reporter, name: string): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, 'soak'], {
    env: { ...process.env, IDEMPOTENCY_BENCH_SOAK_STORES: name, IDEMPOTENCY_BENCH_SOAK_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let pending = '';
  let relay = false; // the child's own headers are this run's: relay from its first store line
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith(`${name}:`)) relay = true;
      if (relay) report.line(line);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (pending && relay) report.line(pending);
  if (code !== 0) report.line(`${name}: the soak process exited with code ${code}`);
}

const suite: BenchSuite = {
  name: 'memory soak: RSS over distinct keys, cleanup running',
  async available() {
    if (process.env.IDEMPOTENCY_BENCH_SOAK !== '1') return 'a long run, not for CI: set IDEMPOTENCY_BENCH_SOAK=1 to run it';
    return null;
  },
  async run(report) {
    const root = await importRuntime<Root>('');
    const wanted = process.env.IDEMPOTENCY_BENCH_SOAK_STORES?.split(',').map((s) => s.trim()) ?? Object.keys(STORES);
    const dir = mkdtempSync(join(tmpdir(), 'idem-soak-'));
    report.line(
      `${KEYS.toLocaleString('en-US')} distinct keys per store, ${CONCURRENCY} concurrent run() calls, ttl ${TTL_MS} ms, cleanup every ${CLEANUP_INTERVAL_MS} ms; ` +
        `runtime: ${runtimeSource}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    try {
      for (const name of wanted) {
        const reason = STORES[name] ? await STORES[name].available() : `unknown store (one of ${Object.keys(STORES).join(', ')})`;
        if (reason) report.line(`\n${name}: skipped: ${reason}`);
        else if (process.env.IDEMPOTENCY_BENCH_SOAK_CHILD === '1') await soak(report, name, root, dir);
        else await inChild(report, name);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
