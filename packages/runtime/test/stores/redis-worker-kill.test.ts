/**
 * A worker process SIGKILLed in the middle of its action on the Redis store (shared 6379, own
 * prefix): while it lives its heartbeat keeps the key; once dead, duplicates wait for its lease,
 * then exactly one of many concurrent retries takes over (the next lockVersion) and the dead worker's
 * version is fenced out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createIdempotency, fingerprintFields, InProgressError } from '../../src/index.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import { binaryResponse } from '../../src/testing/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { deletePrefix, uniquePrefix } from './redis-support/prefix.js';
import { sleep, waitUntil } from './redis-support/redis-server.js';

const available = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));
const client = available ? new Redis({ port: 6379, host: '127.0.0.1' }) : undefined;
const prefix = uniquePrefix('worker-kill');
let worker: ChildProcess | undefined;

afterAll(async () => {
  worker?.kill('SIGKILL');
  if (!client) return;
  await deletePrefix(client, prefix);
  client.disconnect();
});

/** Starts the worker and resolves with the lockVersion it reports once its action runs. */
function startWorker(key: string, leaseMs: number): Promise<number> {
  worker = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'redis-support', 'worker.ts'), '6379', prefix, key, String(leaseMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker did not start its action within 20 s')), 20_000);
    let output = '';
    worker!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /started (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    worker!.once('exit', (code) => reject(new Error(`the worker exited early with ${code}`)));
  });
}

describe.skipIf(!available)('redis store: a SIGKILLed worker is reclaimed after its lease', () => {
  it('holds the key while the worker lives, then gives it to exactly one retry after its lease', async () => {
    const leaseMs = 600;
    const key = `kill_${process.pid}`;
    const id = { key, scope: 'user-1' };
    const store = createRedisStore({ client: client!, prefix });
    const idempotency = createIdempotency({ store, leaseMs: 5_000 });
    const request = { ...id, fingerprint: fingerprintFields(['worker', key]) };

    const dead = await startWorker(key, leaseMs);
    expect(await store.get(id)).toMatchObject({ status: 'PROCESSING', lockVersion: dead });
    await sleep(leaseMs * 2); // alive for two leases: its heartbeat keeps extending
    await expect(idempotency.run(request, async () => 'dup')).rejects.toBeInstanceOf(InProgressError);

    worker!.kill('SIGKILL');
    await new Promise((resolve) => worker!.once('exit', resolve));
    const runs: number[] = [];
    await expect(idempotency.run(request, async () => runs.push(0))).rejects.toBeInstanceOf(InProgressError); // lease still live

    await waitUntil('the dead worker\'s lease to end', async () => (await store.get(id))!.lockedUntil! <= (await store.now()), 5_000);
    const retries = await Promise.all(
      Array.from({ length: 16 }, () =>
        idempotency
          .run(request, async ({ lockVersion, reclaimed }) => {
            runs.push(lockVersion);
            await sleep(50);
            return { lockVersion, reclaimed };
          }, { waitMs: 3_000 })
          .then((result) => result.value),
      ),
    );
    expect(runs).toEqual([dead + 1]); // one takeover, with the next token
    expect(retries.every((value) => value.lockVersion === dead + 1 && value.reclaimed)).toBe(true); // the rest replayed it
    expect(await store.complete({ ...id, lockVersion: dead, response: binaryResponse(4), ttlMs: 60_000 })).toBe('lost'); // the dead worker's token
    expect(await store.get(id)).toMatchObject({ status: 'COMPLETED', lockVersion: dead + 1 });
  });
});
