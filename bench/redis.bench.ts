/**
 * Redis side by side: our Redis store against the peer libraries, on the same local Redis with
 * the same tiny handler, in one run — throughput and p50/p99 (first request, replay, over HTTP),
 * the redis-benchmark ceiling of our claim script, and a concurrent-duplicate correctness check.
 *
 * Run: npx tsx bench/run.ts redis      (peers: npm ci --prefix bench/peers; skipped with a reason if absent)
 * Env: BENCH_REDIS_MS = measured time per case (default 3000).
 */
import { Redis } from 'ioredis';
import { probeTcp } from '../test/support/services.js';
import type { BenchSuite, Reporter, Row } from './harness.js';
import { claimCeiling } from './redis/ceiling.js';
import { closedLoop, type LoadResult } from './redis/closed-loop.js';
import { duplicateCheck, type DuplicateCheck } from './redis/duplicates.js';
import { startHttpBench } from './redis/http.js';
import { ours } from './redis/ours.js';
import { nodeIdempotency, peersMissing, powertools, type Contender, type Payload } from './redis/peers.js';

const durationMs = Number(process.env.BENCH_REDIS_MS ?? 3_000);
const CONCURRENCY = 16;
const REPLAY_KEYS = 1_000;
const tiny = async (payload: Payload) => ({ id: payload.id, ok: true });

const rowOf = (label: string, result: LoadResult, base: number | undefined): Row => ({
  label,
  opsPerSec: result.opsPerSec,
  p50Ms: result.p50Ms,
  p99Ms: result.p99Ms,
  ratio: base ? result.opsPerSec / base : undefined,
  note: result.errors ? `${result.errors} errors, first: ${result.firstError}` : undefined,
});

/** Powertools warns on every call without a Lambda context; silence and count it. */
async function quietly<T>(body: () => Promise<T>): Promise<{ value: T; warnings: number }> {
  const original = console.warn;
  let warnings = 0;
  console.warn = () => void warnings++;
  try {
    return { value: await body(), warnings };
  } finally {
    console.warn = original;
  }
}

/** First request per key: claim + handler + store the result. */
async function measureFirst(contender: Contender, runId: string): Promise<LoadResult> {
  const running = await contender.start(tiny);
  try {
    return await closedLoop((n) => {
      const id = `${contender.keyPrefix}${runId}-first-${n}`;
      return running.invoke(id, { id, amount: 1 });
    }, { concurrency: CONCURRENCY, durationMs });
  } finally {
    await running.stop();
  }
}

/** Replay: REPLAY_KEYS completed keys asked again and again. */
async function measureReplay(contender: Contender, runId: string): Promise<LoadResult> {
  const running = await contender.start(tiny);
  const idOf = (n: number) => `${contender.keyPrefix}${runId}-replay-${n % REPLAY_KEYS}`;
  try {
    for (let n = 0; n < REPLAY_KEYS; n++) await running.invoke(idOf(n), { id: idOf(n), amount: 1 });
    return await closedLoop((n) => running.invoke(idOf(n), { id: idOf(n), amount: 1 }), { concurrency: CONCURRENCY, durationMs });
  } finally {
    await running.stop();
  }
}

function reportDuplicates(report: Reporter, checks: readonly DuplicateCheck[]): void {
  report.line('\nConcurrent duplicates: 50 keys x 20 simultaneous calls each, handler takes 20 ms (right answer: 50 runs)');
  report.line('| library | handler runs | keys run 2+ times | max runs of one key | how the 1000 calls ended |');
  report.line('|---|---:|---:|---:|---|');
  for (const check of checks) {
    const outcomes = Object.entries(check.outcomes).map(([name, count]) => `${name} ${count}`).join(', ');
    report.line(`| ${check.label} | ${check.handlerRuns} | ${check.keysRunTwiceOrMore} | ${check.maxRunsForOneKey} | ${outcomes} |`);
  }
}

/** Deletes every key the run wrote (SCAN + DEL under each prefix; never KEYS or FLUSHALL). */
async function cleanUp(prefixes: readonly string[]): Promise<number> {
  const redis = new Redis({ port: 6379, host: '127.0.0.1' });
  let deleted = 0;
  try {
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 5_000);
        cursor = next;
        if (keys.length > 0) deleted += await redis.unlink(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

const suite: BenchSuite = {
  name: 'Redis store vs peer libraries (same Redis, same tiny handler)',
  async available() {
    return probeTcp(6379).then(
      () => null,
      (error: unknown) => `Redis is not reachable on 127.0.0.1:6379 (${String(error)})`,
    );
  },
  async run(report) {
    const runId = Date.now().toString(36);
    const p = (name: string) => `bench-${name}-${runId}:`;
    const missing = peersMissing();
    if (missing) report.line(`peers skipped: ${missing}`);
    const contenders: Contender[] = [
      ours('ioredis', p('ours-io')),
      ours('node-redis', p('ours-nr')),
      ...(missing ? [] : [powertools(true, p('pt-ctx')), powertools(false, p('pt-noctx')), nodeIdempotency(p('ni'))]),
    ];
    const prefixes = [p('rb'), p('ours-http'), `bench-http-${runId}-`, ...contenders.map((c) => c.keyPrefix)];
    try {
      report.line(`machine: ${CONCURRENCY} calls in flight per case, ${durationMs} ms measured after 500 ms warm-up; Redis 127.0.0.1:6379`);
      const ceiling = await claimCeiling(p('rb'), CONCURRENCY, 100_000);
      report.line(`ceiling command: ${ceiling.command}`);
      const first: Row[] = [{ ...ceiling, ratio: ceiling.opsPerSec ? 1 : undefined }];
      const warnings: string[] = [];
      for (const contender of contenders) {
        const { value, warnings: count } = await quietly(() => measureFirst(contender, runId));
        if (count) warnings.push(`${contender.label}: ${count} console warnings ("Could not determine remaining time left")`);
        first.push(rowOf(contender.label, value, ceiling.opsPerSec));
      }
      report.table('First request per key (claim + handler + store result); ratio = share of the ceiling', first);

      const replay: Row[] = [];
      for (const contender of contenders) {
        const { value } = await quietly(() => measureReplay(contender, runId));
        replay.push(rowOf(contender.label, value, replay.length ? replay[0]!.opsPerSec : value.opsPerSec));
      }
      report.table(`Replay of a completed key (${REPLAY_KEYS} keys asked again); ratio vs our store`, replay);

      const checks: DuplicateCheck[] = [];
      for (const contender of contenders) checks.push((await quietly(() => duplicateCheck(contender, runId))).value);

      if (!missing) {
        const http = await startHttpBench(p('ours-http'), `bench-http-${runId}-`);
        try {
          const routes = [
            http.contender('plain', 'Express 4, handler only (no idempotency)', 'app.post(path, express.json(), handler)'),
            http.contender('ours', 'Express 4 + idempotency-builder (engine in the handler)', 'same engine and store options as above; 409 on in_progress'),
            http.contender(
              'express-idempotency',
              'Express 4 + express-idempotency 1.0 + express-idempotency-redis-adapter 1.0',
              "idempotency({ dataAdapter: new RedisAdapter({ connectionConfig: { url }, ttl: 3600 }) }); handler returns early when isHit(req)",
            ),
          ];
          const rows: Row[] = [];
          for (const route of routes) rows.push(rowOf(route.label, await measureFirst(route, runId), rows[0]?.opsPerSec ?? undefined));
          rows[0] = { ...rows[0]!, ratio: 1 };
          report.table('Over HTTP (undici pool, loopback), first request per key; ratio vs the bare handler', rows);
          checks.push(await duplicateCheck(routes[1]!, runId), await duplicateCheck(routes[2]!, runId));
          report.line(`configurations:\n${routes.map((r) => `- ${r.label}: ${r.configuration}`).join('\n')}`);
        } finally {
          await http.stop();
        }
      }
      reportDuplicates(report, checks);
      report.line(`\nconfigurations:\n${contenders.map((c) => `- ${c.label}: ${c.configuration}`).join('\n')}`);
      for (const warning of warnings) report.line(`note: ${warning}`);
    } finally {
      report.line(`cleanup: ${await cleanUp(prefixes)} keys deleted`);
    }
  },
};

export default suite;
