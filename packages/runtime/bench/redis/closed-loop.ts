/**
 * A closed-loop load generator: `concurrency` callers, each starting its next call when the last
 * one finished, for a fixed time after a warm-up. The same loop drives every library, so their
 * figures are measured the same way.
 */
import { percentile } from '../harness.js';

export interface LoadResult {
  readonly ops: number;
  readonly opsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  /** The first error's message, to show why a library failed under load. */
  readonly firstError?: string;
  /** Every measured latency (ms) and the measured time, for merging rounds. */
  readonly latencies: readonly number[];
  readonly elapsedMs: number;
  /** Calls made during the warm-up (not measured; counted for per-call server cost). */
  readonly warmupOps: number;
}

/**
 * One result from several rounds of the same case (ops over total measured time, percentiles
 * over all latencies).
 * @example mergeRounds([round1, round2, round3])
 */
export function mergeRounds(rounds: readonly LoadResult[]): LoadResult {
  const latencies = rounds.flatMap((round) => round.latencies);
  const elapsedMs = rounds.reduce((sum, round) => sum + round.elapsedMs, 0);
  return {
    ops: latencies.length,
    opsPerSec: latencies.length / (elapsedMs / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    firstError: rounds.find((round) => round.firstError)?.firstError,
    latencies,
    elapsedMs,
    warmupOps: rounds.reduce((sum, round) => sum + round.warmupOps, 0),
  };
}

/**
 * Runs `call(n)` (n counts up from 0 across all callers) under load.
 * @example const result = await closedLoop((n) => run(`key-${n}`), { concurrency: 16, durationMs: 3000 });
 */
export async function closedLoop(
  call: (n: number) => Promise<unknown>,
  { concurrency = 16, durationMs = 3_000, warmupMs = 500 }: { concurrency?: number; durationMs?: number; warmupMs?: number } = {},
): Promise<LoadResult> {
  let next = 0;
  const drive = async (until: number, latencies: number[] | null, failures: { count: number; first?: string }) => {
    while (performance.now() < until) {
      const started = performance.now();
      try {
        await call(next++);
      } catch (error) {
        failures.count++;
        failures.first ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      latencies?.push(performance.now() - started);
    }
  };
  const ignored = { count: 0 };
  const warmupEnd = performance.now() + warmupMs;
  await Promise.all(Array.from({ length: concurrency }, () => drive(warmupEnd, null, ignored)));
  const warmupOps = next;

  const latencies: number[] = [];
  const failures: { count: number; first?: string } = { count: 0 };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => drive(started + durationMs, latencies, failures)));
  const elapsedMs = performance.now() - started;
  return {
    ops: latencies.length,
    opsPerSec: latencies.length / (elapsedMs / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: failures.count,
    firstError: failures.first,
    latencies,
    elapsedMs,
    warmupOps,
  };
}
