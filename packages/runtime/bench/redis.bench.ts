/**
 * Redis side by side: our Redis store against the peer libraries, on the same local Redis with
 * the same tiny handler, in one run — throughput and p50/p99 (first request, replay, over HTTP),
 * the redis-benchmark ceiling of our claim script, and a concurrent-duplicate correctness check.
 *
 * Run: npx tsx bench/run.ts redis      (peers: npm ci --prefix bench/peers; skipped with a reason if absent)
 * Env: BENCH_REDIS_MS = measured time per case, split over 3 interleaved rounds (default 6000).
 */
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { probeTcp } from '../test/support/services.js';
import type { BenchSuite, Reporter, Row } from './harness.js';
import { claimCeiling } from './redis/ceiling.js';
import { closedLoop, mergeRounds, type LoadResult } from './redis/closed-loop.js';
import { commandStats, costBetween, type ServerCost } from './redis/commandstats.js';
import { duplicateCheck, type DuplicateCheck } from './redis/duplicates.js';
import { onePlainGet, storeOnly, twoPlainCommands, twoScripts } from './redis/floors.js';
import { startHttpBench } from './redis/http.js';
import { ours } from './redis/ours.js';
import { nodeIdempotency, peersMissing, powertools, type Contender, type Payload, type Running } from './redis/peers.js';

const totalMs = Number(process.env.BENCH_REDIS_MS ?? 6_000);
const ROUNDS = 3;
const CONCURRENCY = 16;
const REPLAY_KEYS = 1_000;
/** The first two contenders are ours (ioredis, node-redis); the rest are peer libraries. */
const OUR_CONTENDERS = 2;
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

interface Case {
  readonly label: string;
  readonly call: () => Promise<unknown>;
}

/**
 * Measures every case in ROUNDS rounds, round-robin, so a noisy neighbour on the machine slows
 * all of them alike instead of whichever ran at the wrong moment.
 */
async function interleaved(cases: readonly Case[], costs?: ServerCost[]): Promise<LoadResult[]> {
  const rounds = cases.map((): LoadResult[] => []);
  const stats = new Redis({ port: 6379, host: '127.0.0.1' });
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, one] of cases.entries()) {
        const before = await commandStats(stats);
        const result = await closedLoop(() => one.call(), { concurrency: CONCURRENCY, durationMs: totalMs / ROUNDS, warmupMs: round === 0 ? 500 : 200 });
        const cost = costBetween(before, await commandStats(stats), SCRIPT_INNER);
        rounds[index]!.push(result);
        if (costs) {
          // Warm-up calls are in the delta too: count them by dividing by every call made.
          const made = result.ops + result.warmupOps;
          const sum = (costs[index] ??= { calls: 0, sent: 0, usec: 0, made: 0 } as ServerCost & { made: number }) as ServerCost & { made: number };
          sum.calls += cost.calls;
          sum.sent += cost.sent;
          sum.usec += cost.usec;
          sum.made += made;
        }
      }
    }
  } finally {
    stats.disconnect();
  }
  return rounds.map(mergeRounds);
}

/** Commands our Lua scripts call inside Redis (listed by commandstats beside the EVALSHA). */
const SCRIPT_INNER = new Set(['time', 'hmget', 'hset', 'hdel', 'pexpireat', 'get', 'del', 'exists']);

/** `2.0 commands, 31 µs server` per call, for the table's note column. */
const costNote = (cost: (ServerCost & { made?: number }) | undefined): string | undefined =>
  cost && cost.made ? `${(cost.sent / cost.made).toFixed(2)} round-trip commands, ${(cost.usec / cost.made).toFixed(1)} µs Redis time per call` : undefined;

/** First request per key: every call a fresh key (claim + handler + store the result). */
const firstRequests = (contender: Contender, running: Running, runId: string): Case => {
  let next = 0;
  return {
    label: contender.label,
    call: () => {
      const id = `${contender.keyPrefix}${runId}-first-${next++}`;
      return running.invoke(id, { id, amount: 1 });
    },
  };
};

/** Replay: REPLAY_KEYS completed keys asked again and again. */
async function replays(contender: Contender, running: Running, runId: string): Promise<Case> {
  const idOf = (n: number) => `${contender.keyPrefix}${runId}-replay-${n % REPLAY_KEYS}`;
  for (let n = 0; n < REPLAY_KEYS; n++) await running.invoke(idOf(n), { id: idOf(n), amount: 1 });
  let next = 0;
  return { label: contender.label, call: () => running.invoke(idOf(next), { id: idOf(next++), amount: 1 }) };
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
    // Measured in the same rounds as the first requests, never counted as contenders.
    const storeFloor = storeOnly(p('floor-store'));
    const scriptsFloor = twoScripts(p('floor-lua'));
    const plainFloors = [twoPlainCommands('ioredis', p('floor-io')), twoPlainCommands('node-redis', p('floor-nr'))];
    const floors: Contender[] = [storeFloor, scriptsFloor, ...plainFloors];
    const floorOps = (floor: Contender, results: readonly LoadResult[]) => results[floors.indexOf(floor)]!.opsPerSec;
    const replayFloor = onePlainGet(p('floor-get'));
    const prefixes = [p('rb'), p('ours-http'), `bench-http-${runId}-`, ...[...contenders, ...floors, replayFloor].map((c) => c.keyPrefix)];
    try {
      report.line(`load: ${CONCURRENCY} calls in flight per case; ${ROUNDS} interleaved rounds of ${totalMs / ROUNDS} ms per case; Redis 127.0.0.1:6379; load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
      const before = await claimCeiling(p('rb'), CONCURRENCY, 100_000);
      report.line(`ceiling command: ${before.command}`);
      const { value: tables, warnings } = await quietly(async () => {
        const running = await Promise.all(contenders.map((contender) => contender.start(tiny)));
        const floorsRunning = await Promise.all([...floors, replayFloor].map((floor) => floor.start(tiny)));
        try {
          const firstCosts: ServerCost[] = [];
          const replayCosts: ServerCost[] = [];
          const withFloors = await interleaved(
            [...contenders, ...floors].map((contender, i) => firstRequests(contender, (running[i] ?? floorsRunning[i - running.length])!, runId)),
            firstCosts,
          );
          const first = withFloors.slice(0, contenders.length);
          const floorResults = withFloors.slice(contenders.length);
          const replayCases = [...contenders, replayFloor].map((contender, i) => replays(contender, (running[i] ?? floorsRunning[floors.length])!, runId));
          const withReplayFloor = await interleaved(await Promise.all(replayCases), replayCosts);
          const replay = withReplayFloor.slice(0, contenders.length);
          const replayFloorResult = withReplayFloor[contenders.length]!;
          return { first, replay, firstCosts, replayCosts, floorResults, replayFloorResult };
        } finally {
          await Promise.all([...running, ...floorsRunning].map((one) => one.stop()));
        }
      });
      const after = await claimCeiling(p('rb'), CONCURRENCY, 100_000);
      const ceiling: Row = {
        ...before,
        opsPerSec: ((before.opsPerSec ?? 0) + (after.opsPerSec ?? 0)) / 2,
        p50Ms: ((before.p50Ms ?? 0) + (after.p50Ms ?? 0)) / 2,
        p99Ms: ((before.p99Ms ?? 0) + (after.p99Ms ?? 0)) / 2,
        ratio: 1,
        note: `${before.note}; mean of a run before (${Math.round(before.opsPerSec ?? 0)}/s) and after (${Math.round(after.opsPerSec ?? 0)}/s) the cases`,
      };
      report.table(
        'First request per key (claim + handler + store result); ratio = share of the ceiling',
        [ceiling, ...tables.first.map((result, i) => ({ ...rowOf(contenders[i]!.label, result, ceiling.opsPerSec), note: costNote(tables.firstCosts[i]) }))],
      );
      report.table(
        'Floors, first request per key, measured in the same rounds (bench/redis/floors.ts); ratio = share of the ceiling',
        tables.floorResults.map((result, i) => ({
          ...rowOf(floors[i]!.label, result, ceiling.opsPerSec),
          note: costNote(tables.firstCosts[contenders.length + i]),
        })),
      );
      report.table(
        `Replay of a completed key (${REPLAY_KEYS} keys asked again); ratio vs our store (ioredis)`,
        [...tables.replay, tables.replayFloorResult].map((result, i) => ({
          ...rowOf(contenders[i]?.label ?? replayFloor.label, result, tables.replay[0]!.opsPerSec),
          note: costNote(tables.replayCosts[i]),
        })),
      );
      const fastestPeer = (results: readonly LoadResult[]) => Math.max(0, ...results.slice(OUR_CONTENDERS).map((r) => r.opsPerSec));
      const ourBest = (results: readonly LoadResult[]) => Math.max(...results.slice(0, OUR_CONTENDERS).map((r) => r.opsPerSec));
      if (fastestPeer(tables.first) > 0) {
        report.line(
          `ours (faster client) ÷ fastest peer: first request ${(ourBest(tables.first) / fastestPeer(tables.first)).toFixed(2)}x (goal 1.5x), ` +
            `replay ${(ourBest(tables.replay) / fastestPeer(tables.replay)).toFixed(2)}x (goal 2x); ` +
            `share of the EVALSHA ceiling ${(ourBest(tables.first) / (ceiling.opsPerSec ?? 1)).toFixed(2)} (goal 0.5)`,
        );
        const bestTwoCommands = Math.max(...plainFloors.map((floor) => floorOps(floor, tables.floorResults)));
        const storeAlone = floorOps(storeFloor, tables.floorResults);
        report.line(
          `the two plain commands alone, raw client, nothing around them: ${(bestTwoCommands / fastestPeer(tables.first)).toFixed(2)}x the fastest peer ` +
            `(a library making the same two round trips cannot pass this); our store alone: ${(storeAlone / fastestPeer(tables.first)).toFixed(2)}x; ` +
            `one plain GET alone: ${(tables.replayFloorResult.opsPerSec / fastestPeer(tables.replay)).toFixed(2)}x the fastest peer's replay (the most any one-round-trip replay can reach)`,
        );
        report.line(
          `our two scripts by raw EVALSHA, nothing around them: share of the EVALSHA ceiling ${(floorOps(scriptsFloor, tables.floorResults) / (ceiling.opsPerSec ?? 1)).toFixed(2)} ` +
            `(the most any client of these two scripts reaches here); our store alone: ${(storeAlone / (ceiling.opsPerSec ?? 1)).toFixed(2)}`,
        );
      }
      if (warnings) report.line(`note: Powertools without a Lambda context printed ${warnings} console warnings ("Could not determine remaining time left"), silenced during the run`);

      const checks: DuplicateCheck[] = [];
      for (const contender of contenders) checks.push((await quietly(() => duplicateCheck(contender, runId))).value);

      if (!missing) {
        const http = await startHttpBench(p('ours-http'), `bench-http-${runId}-`);
        try {
          const routes = [
            http.contender('plain', 'Express 4, handler only (no idempotency)', 'app.post(path, express.json(), handler)'),
            http.contender('ours', 'Express 4 + idempotency-builder (engine in the handler)', 'same engine and store options as above (ioredis); 409 on in_progress'),
            http.contender(
              'express-idempotency',
              'Express 4 + express-idempotency 1.0 + express-idempotency-redis-adapter 1.0',
              "idempotency({ dataAdapter: new RedisAdapter({ connectionConfig: { url }, ttl: 3600 }) }); handler returns early when isHit(req)",
            ),
          ];
          const running = await Promise.all(routes.map((route) => route.start(tiny)));
          const results = await interleaved(routes.map((route, i) => firstRequests(route, running[i]!, runId)));
          report.table(
            'Over HTTP (undici pool, loopback), first request per key; ratio vs the bare handler',
            results.map((result, i) => rowOf(routes[i]!.label, result, results[0]!.opsPerSec)),
          );
          checks.push(await duplicateCheck(routes[1]!, runId), await duplicateCheck(routes[2]!, runId));
          report.line(`configurations:\n${routes.map((r) => `- ${r.label}: ${r.configuration}`).join('\n')}`);
        } finally {
          await http.stop();
        }
      }
      reportDuplicates(report, checks);
      report.line(`\nconfigurations:\n${contenders.map((c) => `- ${c.label}: ${c.configuration}`).join('\n')}`);
      report.line(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    } finally {
      report.line(`cleanup: ${await cleanUp(prefixes)} keys deleted`);
    }
  },
};

export default suite;
