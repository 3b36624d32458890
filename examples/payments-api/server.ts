/**
 * Starts the payments API: `npx tsx examples/payments-api/server.ts`.
 * Env: PORT (default 3000), SQLITE_FILE (default ./payments.db), DATABASE_URL, REDIS_URL,
 * IDEMPOTENCY_ENCRYPTION_KEY (see encryption.ts). Prometheus metrics on GET /metrics.
 */
import type { AddressInfo } from 'node:net';
import { createIdempotency, startCleanup } from '@idempotency-builder/runtime';
import { createPaymentsApp } from './app.js';
import { responseEncryption } from './encryption.js';
import { createPaymentsMetrics } from './metrics.js';
import { openStorage } from './storage.js';

const storage = await openStorage();
const encryption = responseEncryption();
const metrics = createPaymentsMetrics();
const idempotency = createIdempotency({
  store: storage.store,
  metrics: metrics.sink, // duplicates, mismatches, lease timeouts, durations, new keys per scope bucket, reclaims
  // Payment responses hold amounts, recipients and ids: never at rest in plaintext.
  codec: encryption.codec,
  leaseMs: 10_000, // a payment takes well under a second; a crashed worker's key frees up after 10 s
  ttlMs: 24 * 60 * 60 * 1000, // retries within a day get the original answer
});

// Deletes expired records every minute and reports store_size (the "cleanup not running" alert
// watches it); one run at start so the gauge exists from the first scrape.
const cleanup = startCleanup({ store: storage.store, intervalMs: 60_000, metrics: metrics.sink });
await cleanup.runOnce();

const app = createPaymentsApp({ idempotency, ledger: storage.ledger, metrics: metrics.exposition });
const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`payments-api listening on http://127.0.0.1:${port} (${storage.description}; ${encryption.description})`);
});

const shutdown = () => {
  server.close(() => void cleanup.stop().then(() => storage.close()).then(() => process.exit(0)));
  server.closeAllConnections();
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
