/**
 * Dynalite (a local DynamoDB) as a child process on a free loopback port, for the benches that
 * need DynamoDB: in a child, the emulator does not share the bench's event loop or its memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts dynalite and resolves once it listens; kill the child to stop it.
 * @example const { endpoint, child } = await startDynalite(); try { … } finally { child.kill(); }
 */
export async function startDynalite(): Promise<{ endpoint: string; child: ChildProcess }> {
  const port = await freePort();
  const entry = createRequire(import.meta.url).resolve('dynalite');
  const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(entry)})({ createTableMs: 0 }).listen(${port}, '127.0.0.1', () => console.log('ready'))`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`dynalite exited (${code})`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, child };
}
