/**
 * The benchmark harness: every suite measures its baseline in the same run and reports ratios,
 * so figures stay comparable across machines. A suite whose server is absent says so and skips.
 */
import { Bench } from 'tinybench';

export interface BenchSuite {
  readonly name: string;
  /** Returns a reason to skip (e.g. "PostgreSQL not reachable"), or null to run. */
  available?(): Promise<string | null>;
  run(report: Reporter): Promise<void>;
}

export interface Row {
  readonly label: string;
  readonly opsPerSec?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  /** ops/s relative to the suite's baseline row (baseline = 1.00). */
  readonly ratio?: number;
  readonly note?: string;
}

export interface Reporter {
  table(title: string, rows: readonly Row[]): void;
  line(text: string): void;
}

const fmt = (value: number | undefined, digits = 0) =>
  value === undefined ? '' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const consoleReporter: Reporter = {
  table(title, rows) {
    console.log(`\n${title}`);
    console.log('| case | ops/s | p50 ms | p99 ms | ratio | note |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const row of rows) {
      console.log(
        `| ${row.label} | ${fmt(row.opsPerSec)} | ${fmt(row.p50Ms, 3)} | ${fmt(row.p99Ms, 3)} | ${row.ratio === undefined ? '' : `${fmt(row.ratio, 2)}x`} | ${row.note ?? ''} |`,
      );
    }
  },
  line(text) {
    console.log(text);
  },
};

/**
 * Runs tinybench tasks (the first is the baseline) and returns rows with ratios.
 * tinybench runs each task until BOTH `time` ms and `iterations` runs are reached, so the
 * iteration floor stays small (default 10) and `time` bounds the task.
 */
export async function compare(
  tasks: readonly { label: string; fn: () => unknown | Promise<unknown>; note?: string }[],
  { time = 1000, iterations = 10 }: { time?: number; iterations?: number } = {},
): Promise<Row[]> {
  const bench = new Bench({ time, iterations, warmupTime: 200 });
  for (const task of tasks) bench.add(task.label, task.fn);
  await bench.run();
  const rows = bench.tasks.map((task, index) => {
    // Ops/s from the mean period (total time / runs), not tinybench's `throughput.mean`: that is
    // the mean of per-sample 1/latency, which a heavy tail (GC pauses) inflates — it reported an
    // engine costing 25 µs a call as 9 µs.
    const result = task.result as unknown as { period?: number; latency?: { p50?: number; p99?: number } };
    return {
      label: task.name,
      opsPerSec: result.period ? 1000 / result.period : undefined,
      p50Ms: result.latency?.p50,
      p99Ms: result.latency?.p99,
      note: tasks[index]?.note,
    };
  });
  const base = rows[0]?.opsPerSec ?? 1;
  return rows.map((row, index) => {
    const addedUs = index === 0 || !row.opsPerSec ? undefined : 1e6 / row.opsPerSec - 1e6 / base;
    const added = addedUs === undefined ? undefined : `+${addedUs.toFixed(1)} µs/op vs baseline`;
    return { ...row, ratio: (row.opsPerSec ?? 0) / base, note: [row.note, added].filter(Boolean).join('; ') || undefined };
  });
}

/** Percentile of a list of samples (ms). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Operations per second of `op` run by `clients` concurrent loops for `ms` (each loop starts its
 * next call when the last one finished); `op` gets a counter shared by all loops, for fresh keys.
 * @example await throughput(8, 2_000, (n) => store.claim(claimInput(`k-${n}`)))
 */
export async function throughput(clients: number, ms: number, op: (n: number) => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + ms;
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        await op(next++);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}
