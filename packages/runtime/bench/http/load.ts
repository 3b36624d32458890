/**
 * The client side of the HTTP bench: starting a bench server process and talking to it over IPC,
 * and driving it with autocannon (loopback, fixed connection count, one request shape per case).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BenchFramework } from './apps.js';
import type { ServerMessage } from './bench-server.js';
import type { BenchStoreKind } from './stores.js';

/** The part of autocannon used here (it ships no types). */
export interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
export interface AutocannonResult {
  requests: { total: number };
  duration: number;
  latency: { p50: number; p99: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export const BODY = JSON.stringify({ amount: 4999, currency: 'EUR', recipient_id: 'acct_42' });
const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));

export interface BenchServer {
  readonly framework: BenchFramework;
  readonly kind: BenchStoreKind;
  readonly url: string;
  /** How the store is configured, as the server reports it. */
  readonly store: string;
  /** Which build of the runtime the server imported. */
  readonly runtime: string;
  /** The server's process CPU time (user + system, µs) and requests served so far. */
  cpu(): Promise<{ cpuUs: number; requests: number }>;
  /** Resolves when the /hold handler has started waiting. */
  held(): Promise<void>;
  stop(): Promise<void>;
}

/** The next IPC message of one type from the child. */
function next<T extends ServerMessage['type']>(child: ChildProcess, type: T): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerMessage) => {
      if (message?.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<ServerMessage, { type: T }>);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the bench server exited (code ${code}) while the bench waited for "${type}"`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * Forks one bench server. `cpuProfDir`: run it under `node --cpu-prof` (the profile is written
 * there when it stops).
 * @example const server = await startServer('express', 'memory'); ...; await server.stop();
 */
export async function startServer(framework: BenchFramework, kind: BenchStoreKind, cpuProfDir?: string): Promise<BenchServer> {
  const profile = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  const child = fork(SERVER, [framework, kind], { execArgv: ['--import', 'tsx', ...profile], stdio: 'inherit' });
  const ready = await next(child, 'ready');
  return {
    framework,
    kind,
    url: `http://127.0.0.1:${ready.port}`,
    store: ready.store,
    runtime: ready.runtime,
    async cpu() {
      const answer = next(child, 'cpu');
      child.send({ type: 'cpu' });
      const { cpuUs, requests } = await answer;
      return { cpuUs, requests };
    },
    held: () => next(child, 'held').then(() => undefined),
    async stop() {
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    },
  };
}

/**
 * A POST of the bench body; `key` is a fixed Idempotency-Key or a function giving a new one per request.
 * @example request('/protected', () => `k-${n++}`)
 */
export function request(path: string, key?: string | (() => string)): AutocannonRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-user': 'bench-user' };
  if (typeof key === 'string') headers['idempotency-key'] = key;
  const base = { method: 'POST', path, headers, body: BODY };
  if (typeof key !== 'function') return base;
  return { ...base, setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': key() } }) };
}

/**
 * Runs autocannon for `seconds` against one request shape.
 * @example const result = await load(server.url, request('/plain'), 1, 32);
 */
export function load(url: string, req: AutocannonRequest, seconds: number, connections: number): Promise<AutocannonResult> {
  return autocannon({ url, connections, duration: seconds, requests: [req] });
}
