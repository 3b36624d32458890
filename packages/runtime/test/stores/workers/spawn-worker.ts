/** Test helper: forks a worker script under tsx and talks to it over IPC (used by the multi-process tests). */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface Worker<M> {
  readonly child: ChildProcess;
  /** The next IPC message of this `type` (rejects if the worker exits or times out first). */
  next<T extends M>(type: string, timeoutMs?: number): Promise<T>;
  /** Resolves with the exit signal or code once the process is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Forks `test/stores/workers/<script>` with `--import tsx`, passing `config` as JSON in argv.
 * @example const worker = spawnWorker('race-worker.ts', { filename }); await worker.next('ready');
 */
export function spawnWorker<M extends { type: string }>(script: string, config: unknown): Worker<M> {
  const child = fork(join(here, script), [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: M[] = [];
  const waiters: { type: string; resolve: (m: M) => void }[] = [];
  child.on('message', (message: M) => {
    const index = waiters.findIndex((w) => w.type === message.type);
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
    else inbox.push(message);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    next<T extends M>(type: string, timeoutMs = 20_000) {
      const queued = inbox.findIndex((m) => m.type === type);
      if (queued >= 0) return Promise.resolve(inbox.splice(queued, 1)[0] as T);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker ${child.pid} sent no "${type}" within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ type, resolve: (m) => (clearTimeout(timer), resolve(m as T)) });
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`worker ${child.pid} exited (code ${code}, signal ${signal}) before sending "${type}"`));
        });
      });
    },
  };
}
