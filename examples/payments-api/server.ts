/**
 * Starts the payments API: `npx tsx examples/payments-api/server.ts`.
 * Env: PORT (default 3000), SQLITE_FILE (default ./payments.db), DATABASE_URL, REDIS_URL,
 * IDEMPOTENCY_ENCRYPTION_KEY (see encryption.ts).
 */
import type { AddressInfo } from 'node:net';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createPaymentsApp } from './app.js';
import { responseEncryption } from './encryption.js';
import { openStorage } from './storage.js';

const storage = await openStorage();
const encryption = responseEncryption();
const idempotency = createIdempotency({
  store: storage.store,
  // Payment responses hold amounts, recipients and ids: never at rest in plaintext.
  codec: encryption.codec,
  leaseMs: 10_000, // a payment takes well under a second; a crashed worker's key frees up after 10 s
  ttlMs: 24 * 60 * 60 * 1000, // retries within a day get the original answer
});

const app = createPaymentsApp({ idempotency, ledger: storage.ledger });
const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`payments-api listening on http://127.0.0.1:${port} (${storage.description}; ${encryption.description})`);
});

const shutdown = () => {
  server.close(() => void storage.close().then(() => process.exit(0)));
  server.closeAllConnections();
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
