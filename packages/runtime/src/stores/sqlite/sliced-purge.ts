/**
 * The SQLite purge in short write transactions with an event-loop turn between them.
 * better-sqlite3 is synchronous: one DELETE of 5 000 rows held the process's event loop, and so
 * every claim, heartbeat and HTTP request in it, for the whole statement (bench/sqlite.bench.ts:
 * claims of new keys waited 8–16 s while 10^6 rows were purged in back-to-back batches).
 */

/** Rows of the first slice, before any timing is known. */
const FIRST_SLICE_ROWS = 64;
/** Below this a slice's commit (an fsync under synchronous = FULL) costs more than its rows. */
const MIN_SLICE_ROWS = 16;
const MAX_SLICE_ROWS = 8_192;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Wraps one bounded DELETE (`deleteUpTo(rows)` answers the rows it removed, each call its own
 * transaction) into `purgeExpired(batchSize)`: slices sized to take about `sliceMs` each, learnt
 * from the previous slice and kept across calls, with a `setImmediate` turn before each slice so
 * pending I/O and timers run between any two slices, within a call or across calls. Each slice
 * re-reads the store clock and the status, so nothing PROCESSING or unexpired is ever deleted,
 * whatever happens between slices.
 * @example const purge = slicedPurge((rows) => statement.run({ batchSize: rows }).changes, { sliceMs: 2, stopped: () => closed });
 */
export function slicedPurge(
  deleteUpTo: (rows: number) => number,
  { sliceMs, stopped }: { sliceMs: number; stopped: () => boolean },
): (batchSize: number) => Promise<number> {
  let sliceRows = FIRST_SLICE_ROWS;
  return async (batchSize) => {
    let removed = 0;
    while (removed < batchSize && !stopped()) {
      // A turn before every slice, the first of a call too: a caller that loops over batches
      // (the cleanup job) ran the last slice of one batch and the first of the next back to back,
      // and claims waited for both (bench/sqlite.bench.ts, startCleanup over 10^6 expired rows:
      // claim p99 2.3-7.0x the p99 without a purge before, 1.2-2.0x with this turn).
      await turn();
      if (stopped()) break;
      const want = Math.min(sliceRows, batchSize - removed);
      const started = performance.now();
      const deleted = deleteUpTo(want);
      const tookMs = performance.now() - started;
      removed += deleted;
      if (deleted < want) break; // nothing expired is left
      // Steer towards sliceMs, at most halving or doubling per slice: one slow fsync must not
      // collapse the slice, nor one fast slice balloon it.
      const target = (want * sliceMs) / Math.max(tookMs, 0.01);
      sliceRows = Math.round(Math.min(MAX_SLICE_ROWS, sliceRows * 2, Math.max(MIN_SLICE_ROWS, sliceRows / 2, target)));
    }
    return removed;
  };
}
