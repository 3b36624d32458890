/**
 * Child process for the worker-fault scenarios: runs ONE intent on the SQLite file, says
 * `started` mid-action, holds for `holdMs`, then — only if its signal has not aborted — writes
 * its side effect and returns. The parent SIGKILLs or SIGSTOPs it mid-action.
 */
import { appendFileSync } from 'node:fs';
import { createIdempotency } from '../../../src/core/engine.js';
import { IdempotencyError } from '../../../src/core/errors.js';
import { fingerprintFields } from '../../../src/core/fingerprint.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';

export interface IntentWorkerConfig {
  readonly filename: string;
  readonly effectsFile: string;
  readonly key: string;
  readonly leaseMs: number;
  readonly holdMs: number;
}

export type IntentWorkerMessage = { type: 'started'; lockVersion: number } | { type: 'done'; outcome: string };

const config = JSON.parse(process.argv[2]!) as IntentWorkerConfig;
const store = createSqliteStore({ filename: config.filename, busyTimeoutMs: 10_000 });
await store.ready;
const idempotency = createIdempotency({ store, leaseMs: config.leaseMs, ttlMs: 60_000 });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let outcome: string;
try {
  await idempotency.run({ key: config.key, scope: 'chaos', fingerprint: fingerprintFields(['chaos', config.key]) }, async ({ signal, lockVersion }) => {
    process.send!({ type: 'started', lockVersion } satisfies IntentWorkerMessage);
    await sleep(config.holdMs);
    // After a stall, overdue timers (the heartbeat's watchdog among them) run before this check.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal.aborted) throw signal.reason;
    appendFileSync(config.effectsFile, `${config.key}\n`);
    return 'done';
  });
  outcome = 'ran';
} catch (error) {
  outcome = error instanceof IdempotencyError ? error.code : String(error);
}
await store.close();
process.send!({ type: 'done', outcome } satisfies IntentWorkerMessage, () => process.exit(0));
