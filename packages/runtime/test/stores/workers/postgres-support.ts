/** Shared by the PostgreSQL tests: the server probe, pools, one schema per test file, a counting port, child processes. */
import { fork, type ChildProcess } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { probeTcp, serviceAvailable } from '../../support/services.js';
import type { PgQueryable } from '../../../src/stores/postgres/index.js';

export const PG_CONFIG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' } as const;

/** True when the server answers; false (printed reason) outside CI; throws under CI=true. */
export const postgresAvailable = () => serviceAvailable('PostgreSQL', () => probeTcp(PG_CONFIG.port));

/**
 * The schema of one test file, named from the file (`test/stores/postgres-faults.test.ts` →
 * `t_postgres_faults_<pid>`), so parallel files and parallel runs never share tables.
 */
export function schemaFor(fileUrl: string): string {
  const stem = basename(fileURLToPath(fileUrl)).replace(/\.test\.ts$/, '').replace(/[^a-z0-9]+/gi, '_').toLowerCase();
  return `t_${stem}_${process.pid}`;
}

/** A pool whose idle connections go after `idleMs`: several test files share max_connections = 100. */
export const newPool = (max: number, idleMs = 1000) => new pg.Pool({ ...PG_CONFIG, max, idleTimeoutMillis: idleMs });

/** Opens `count` connections at once, so a race measures claims, not connection set-up. */
export async function warmPool(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
}

/** Counts the statements sent through a port: all of them, or those with one exact text. */
export function countingQueryable(db: PgQueryable): PgQueryable & { count(text?: string): number; reset(): void } {
  const counts = new Map<string, number>();
  return {
    query(text, values) {
      counts.set(text, (counts.get(text) ?? 0) + 1);
      return db.query(text, values);
    },
    count: (text) => (text === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(text) ?? 0)),
    reset: () => counts.clear(),
  };
}

/**
 * The fencing token a fresh claim must carry — its own statement's store clock in whole ms
 * (contract.ts, "Fencing tokens") — recovered from the lease end that statement wrote. Exact:
 * TIMESTAMPTZ keeps microseconds, a float8 near 1.7e12 ms keeps them too (ulp 2.4e-4), and
 * subtracting an integer lease stays in the same binade, so the floor never slips a millisecond.
 */
export const clockTokenOf = (lockedUntil: number, leaseMs: number) => Math.floor(lockedUntil - leaseMs);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns true (or throws after `timeoutMs`). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 10_000, label = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await sleep(20);
  }
  throw new Error(`${label} did not hold within ${timeoutMs} ms`);
}

export interface Child {
  readonly child: ChildProcess;
  /** The next IPC message with this `type`. */
  next(type: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Forks `test/stores/workers/<script>` under tsx with `config` as JSON in argv, talking over IPC. */
export function forkWorker(script: string, config: unknown): Child {
  const child = fork(join(here, script), [JSON.stringify(config)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const inbox: Record<string, unknown>[] = [];
  const waiters: { type: string; resolve: (m: Record<string, unknown>) => void }[] = [];
  child.on('message', (message: Record<string, unknown>) => {
    const index = waiters.findIndex((w) => w.type === message.type);
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
    else inbox.push(message);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    next(type, timeoutMs = 20_000) {
      const queued = inbox.findIndex((m) => m.type === type);
      if (queued >= 0) return Promise.resolve(inbox.splice(queued, 1)[0]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker sent no "${type}" within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ type, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`worker exited (code ${code}, signal ${signal}) before sending "${type}"`));
        });
      });
    },
  };
}
