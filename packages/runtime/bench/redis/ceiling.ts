/**
 * The ceiling: `redis-benchmark` (a C client) calling our claim script by EVALSHA on fresh
 * random keys — what the server itself can do, with no Node.js client or engine in the way.
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { fingerprintFields } from '@idempotency-builder/runtime';
import { LUA_SCRIPTS } from '../../src/stores/redis/lua/scripts.generated.js';
import type { Row } from '../harness.js';

/**
 * Loads the claim script and runs redis-benchmark against it; a row with a note when the tool is
 * missing.
 * @example const row = await claimCeiling('bench-rb:', 16, 100_000);
 */
export async function claimCeiling(prefix: string, clients: number, requests: number): Promise<Row & { command: string }> {
  const redis = new Redis({ port: 6379, host: '127.0.0.1' });
  try {
    await redis.script('LOAD', LUA_SCRIPTS.claim.source);
  } finally {
    redis.disconnect();
  }
  const args = [
    '-h', '127.0.0.1', '-p', '6379', '-c', String(clients), '-n', String(requests), '-r', '1000000000', '--csv',
    'EVALSHA', LUA_SCRIPTS.claim.sha1, '2', `${prefix}r:{__rand_int__}`, `${prefix}f:{__rand_int__}`,
    fingerprintFields(['ceiling']), '0', '', '30000', '3600000', '1', 'key', 'bench',
  ];
  const command = `redis-benchmark ${args.map((arg) => (arg === '' ? "''" : arg)).join(' ')}`;
  const label = 'ceiling: redis-benchmark EVALSHA of our claim script';
  const result = spawnSync('redis-benchmark', args, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) return { label, note: `redis-benchmark unavailable: ${result.error?.message ?? result.stderr}`, command };
  // CSV: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
  const row = result.stdout.trim().split('\n').at(-1)!.split('","').map((cell) => cell.replace(/"/g, ''));
  return {
    label,
    opsPerSec: Number(row[1]),
    p50Ms: Number(row[4]),
    p99Ms: Number(row[6]),
    note: `claim only (1 round trip), ${clients} connections, C client; fresh random keys`,
    command,
  };
}
