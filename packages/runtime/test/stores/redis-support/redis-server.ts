/**
 * Test-owned redis-server processes on free loopback ports, in their own temp directories, for
 * the tests that kill, restart, replicate or cluster Redis. The shared server on 6379 is never
 * touched. Every wait is bounded; `stop()` always kills the process and removes its directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export const hasRedisServer = () => spawnSync('redis-server', ['--version']).status === 0;

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free loopback port whose cluster bus port (port + 10000) is free too. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if ((await canListen(port)) && (await canListen(port + 10_000))) return port;
  }
  throw new Error('No free loopback port pair found.');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns true, at most `timeoutMs`. */
export async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(50);
  }
}

/** Runs one command on a server with a short-lived connection. */
export async function command(port: number, ...args: (string | number)[]): Promise<unknown> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {}); // a server that is not up yet is an expected answer while polling
  try {
    await client.connect();
    return await client.call(String(args[0]), ...args.slice(1).map(String));
  } finally {
    client.disconnect();
  }
}

export interface RedisServer {
  readonly port: number;
  readonly dir: string;
  readonly process: ChildProcess;
  /** Starts the server again on the same port and directory (after kill or stop). */
  restart(): Promise<void>;
  /** Sends a signal to the running server process. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Kills the process and deletes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` with no persistence unless `args` asks for it.
 * @example const server = await startRedisServer(['--appendonly', 'yes']); ...; await server.stop();
 */
export async function startRedisServer(args: readonly string[] = [], options: { port?: number } = {}): Promise<RedisServer> {
  let port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'idem-redis-'));
  let child: ChildProcess;

  const exited = (proc: ChildProcess) =>
    new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve())));

  /** Starts the process; true once it answers as itself (its pid), false if it could not bind. */
  async function launch(): Promise<boolean> {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', join(dir, 'redis.log'), ...args],
      { stdio: 'ignore' },
    );
    child = proc;
    // Another process may have taken the port since freePort(): then ours exits, and a PING
    // would be answered by the other server — so only our own process_id counts as up.
    await waitUntil(`redis-server on ${port}`, async () => {
      if (proc.exitCode !== null) return true;
      return String(await command(port, 'INFO', 'server')).includes(`process_id:${proc.pid}\r`);
    });
    return proc.exitCode === null;
  }

  for (let attempt = 1; !(await launch()); attempt++) {
    if (options.port !== undefined || attempt >= 5) throw new Error(`redis-server could not start on port ${port}.`);
    port = await freePort();
  }
  const server: RedisServer = {
    port,
    dir,
    get process() {
      return child;
    },
    async restart() {
      if (!(await launch())) throw new Error(`redis-server could not start again on port ${port}.`);
    },
    async kill(signal) {
      const proc = child;
      proc.kill(signal);
      if (signal === 'SIGKILL' || signal === 'SIGTERM') await Promise.race([exited(proc), sleep(5_000)]);
    },
    async stop() {
      const proc = child;
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGCONT'); // a test may have frozen it
        proc.kill('SIGKILL');
        await Promise.race([exited(proc), sleep(5_000)]);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
