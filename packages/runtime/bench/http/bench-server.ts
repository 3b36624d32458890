/**
 * The server side of bench/http.bench.ts, run as its own process (so the load generator does not
 * share its event loop, and its CPU time is its own): one framework over one store, named in
 * argv[2] and argv[3]. Talks to the parent over IPC:
 *   -> { type: 'ready', port, store, runtime }     once listening
 *   -> { type: 'held' }                            when the /hold handler starts waiting
 *   <- { type: 'cpu' }  -> { type: 'cpu', cpuUs, requests }   process CPU time and requests served so far
 *   <- 'stop'                                      close, clean up, exit (a --cpu-prof profile is written then)
 * Env: IDEMPOTENCY_BENCH_RUNTIME_DIST (see ../runtime-import.ts).
 */
import { FRAMEWORKS, startApp, type BenchFramework, type Gate } from './apps.js';
import { importRuntime, runtimeSource } from '../runtime-import.js';
import { openStore, STORE_KINDS, type BenchStoreKind } from './stores.js';

export type { BenchStoreKind } from './stores.js';

export type ServerMessage =
  | { readonly type: 'ready'; readonly port: number; readonly store: string; readonly runtime: string }
  | { readonly type: 'held' }
  | { readonly type: 'cpu'; readonly cpuUs: number; readonly requests: number };

const framework = process.argv[2] as BenchFramework;
const kind = process.argv[3] as BenchStoreKind;
if (!FRAMEWORKS.includes(framework) || !STORE_KINDS.includes(kind)) {
  throw new Error(`usage: bench-server.ts <${FRAMEWORKS.join('|')}> <${STORE_KINDS.join('|')}>`);
}
// Without IPC (started by hand, e.g. under strace or perf) the messages go to stdout.
const send = (message: ServerMessage) => (process.send ? process.send(message) : console.log(JSON.stringify(message)));

const { createIdempotency } = await importRuntime<typeof import('@idempotency-builder/runtime')>('');
const opened = await openStore(kind);
const idempotency = createIdempotency({ store: opened.store, leaseMs: 30_000, ttlMs: 600_000 });

let opening: (() => void) | null = null;
let waiting: Promise<void> | null = null;
const gate: Gate = {
  wait() {
    waiting ??= new Promise<void>((resolve) => (opening = resolve));
    send({ type: 'held' });
    return waiting;
  },
  open() {
    opening?.();
    opening = null;
    waiting = null;
  },
};

const app = await startApp(framework, idempotency, gate);
let requests = 0;
app.server.on('request', () => void requests++);

process.on('message', (message: unknown) => {
  if (message === 'stop') {
    void app
      .close()
      .then(() => opened.store.close())
      .then(() => opened.cleanup())
      .finally(() => process.exit(0));
    return;
  }
  if ((message as { type?: string }).type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', cpuUs: user + system, requests });
  }
});
send({ type: 'ready', port: app.port, store: opened.description, runtime: runtimeSource });
