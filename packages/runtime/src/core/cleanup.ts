/**
 * The cleanup job: deletes expired COMPLETED/FAILED records in bounded batches on an interval
 * and reports the store_size gauge, so the table never grows without bound and a stopped job
 * shows up on a dashboard. Retention itself is `ttlMs` on the engine; this job only collects.
 */
import type { IdempotencyStore } from './store-contract.js';
import { silentLogger, type Logger } from './logger.js';
import { METRICS, noopMetrics, type MetricsSink } from './metrics.js';
import { positiveInteger } from './options.js';

export interface CleanupOptions {
  readonly store: Pick<IdempotencyStore, 'purgeExpired' | 'size'>;
  /** Time between runs. Default 60 s. */
  readonly intervalMs?: number;
  /** Rows per delete statement: small batches keep claims unblocked. Default 1000. */
  readonly batchSize?: number;
  /** Upper bound of batches per run, so one run never monopolises the store. Default 100. */
  readonly maxBatchesPerRun?: number;
  readonly metrics?: MetricsSink;
  readonly logger?: Logger;
}

export interface CleanupJob {
  /** One run now: purge until a batch comes back short or the bound is hit. Returns rows removed. */
  runOnce(): Promise<number>;
  /** Stops the interval and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * @example
 * const cleanup = startCleanup({ store, intervalMs: 60_000, metrics });
 * process.on('SIGTERM', () => cleanup.stop());
 */
export function startCleanup({
  store,
  intervalMs = 60_000,
  batchSize = 1000,
  maxBatchesPerRun = 100,
  metrics = noopMetrics,
  logger = silentLogger,
}: CleanupOptions): CleanupJob {
  positiveInteger('intervalMs', intervalMs);
  positiveInteger('batchSize', batchSize);
  positiveInteger('maxBatchesPerRun', maxBatchesPerRun);
  let running: Promise<number> | null = null;

  async function purge(): Promise<number> {
    let removed = 0;
    for (let batch = 0; batch < maxBatchesPerRun; batch++) {
      const count = await store.purgeExpired(batchSize);
      removed += count;
      if (count < batchSize) break;
    }
    metrics.gauge(METRICS.storeSize, await store.size());
    logger.info({ removed }, 'idempotency cleanup run finished');
    return removed;
  }

  const runOnce = (): Promise<number> => {
    // Never two runs at once: an overlapping tick joins the run in progress.
    running ??= purge().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    runOnce().catch((error: unknown) => logger.error({ error: String(error) }, 'idempotency cleanup run failed'));
  }, intervalMs);
  timer.unref?.();

  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}
