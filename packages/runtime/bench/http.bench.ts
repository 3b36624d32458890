/**
 * HTTP overhead of the idempotency middleware: autocannon on loopback (32 connections, a few
 * seconds per case) against one Express 5 server process per store, in the same run — the same
 * handler unprotected (baseline), protected with a new key per request, protected on replays,
 * and duplicates rejected while the key is in progress (their p50/p99 latency).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { probeTcp } from '../test/support/services.js';
import type { BenchStoreKind } from './http/bench-server.js';
import type { BenchSuite, Reporter, Row } from './harness.js';

/** The part of autocannon used here (it ships no types). */
interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.HTTP_BENCH_SECONDS ?? 3);
const BODY = JSON.stringify({ amount: 4999, currency: 'EUR', recipient_id: 'acct_42' });
const SERVER = fileURLToPath(new URL('./http/bench-server.ts', import.meta.url));

async function startServer(kind: BenchStoreKind): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = fork(SERVER, [kind], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(() => [null])])) as [{ port: number } | null];
  if (!message) throw new Error(`the ${kind} bench server exited before listening`);
  return {
    url: `http://127.0.0.1:${message.port}`,
    stop: async () => {
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    },
  };
}

const request = (path: string, key?: string | (() => string)): AutocannonRequest => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-user': 'bench-user' };
  if (typeof key === 'string') headers['idempotency-key'] = key;
  const base = { method: 'POST', path, headers, body: BODY };
  if (typeof key !== 'function') return base;
  return { ...base, setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': key() } }) };
};

const statusNote = (result: AutocannonResult) =>
  Object.entries(result.statusCodeStats).map(([status, { count }]) => `${status}×${count}`).join(' ') + (result.errors ? ` errors×${result.errors}` : '');

async function load(url: string, req: AutocannonRequest, duration = DURATION_S) {
  return autocannon({ url, connections: CONNECTIONS, duration, requests: [req] });
}

async function measureStore(kind: BenchStoreKind, report: Reporter): Promise<void> {
  const server = await startServer(kind);
  try {
    let n = 0;
    const run = `${Date.now()}`;
    await load(server.url, request('/plain'), 1); // warm-up: JIT and sockets
    const plain = await load(server.url, request('/plain'));
    const fresh = await load(server.url, request('/protected', () => `new-${run}-${n++}`));
    const replayKey = `replay-${run}`;
    await fetch(`${server.url}/protected`, { method: 'POST', headers: request('', replayKey).headers, body: BODY });
    const replays = await load(server.url, request('/protected', replayKey));
    const holdKey = `hold-${run}`;
    const held = fetch(`${server.url}/hold`, { method: 'POST', headers: request('', holdKey).headers, body: BODY });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the first request holds the key
    const duplicates = await load(server.url, request('/hold', holdKey));
    await fetch(`${server.url}/release`, { method: 'POST' });
    await held;
    // The baseline again, last: on a busy machine the two differ, and the ratios use their mean.
    const plainAgain = await load(server.url, request('/plain'));

    const base = (plain.requests.average + plainAgain.requests.average) / 2;
    const row = (label: string, result: AutocannonResult): Row => ({
      label,
      opsPerSec: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      ratio: result.requests.average / base,
      note: statusNote(result),
    });
    report.table(`${kind} store — Express 5, ${CONNECTIONS} connections, ${DURATION_S} s per case`, [
      row('unprotected handler (baseline; ratios use the mean of both runs)', plain),
      row('protected, new key per request', fresh),
      row('protected, replay of one key', replays),
      row('duplicates while in progress (409)', duplicates),
      row('unprotected handler again (drift check)', plainAgain),
    ]);
    report.line(`${kind}: duplicate-rejection latency p50 ${duplicates.latency.p50} ms, p99 ${duplicates.latency.p99} ms`);
  } finally {
    await server.stop();
  }
}

/** Why a store cannot be measured now, or null. */
async function unavailable(kind: BenchStoreKind): Promise<string | null> {
  const module = { sqlite: '../src/stores/sqlite/index.js', postgres: '../src/stores/postgres/index.js', redis: '../src/stores/redis/index.js' };
  if (kind === 'memory') return null;
  try {
    await import(new URL(module[kind].replace(/\.js$/, '.ts'), import.meta.url).href);
  } catch (error) {
    return `the ${kind} store is not there (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
  const port = { sqlite: 0, postgres: 5432, redis: 6379 }[kind];
  if (port === 0) return null;
  return probeTcp(port).then(
    () => null,
    (error: Error) => `${kind} server not reachable (${error.message})`,
  );
}

const suite: BenchSuite = {
  name: 'HTTP: Express handler with and without idempotencyMiddleware (autocannon)',
  async run(report) {
    for (const kind of ['memory', 'sqlite', 'postgres', 'redis'] as const) {
      const reason = await unavailable(kind);
      if (reason) report.line(`${kind}: skipped — ${reason}`);
      else await measureStore(kind, report);
    }
  },
};

export default suite;
