/** Test helper: an engine over a SQLite store file (shared by test process and workers), and the test's poison error. */
import { createIdempotency, type Idempotency } from '../../../src/index.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';

/** What the test handlers throw for a message that can never succeed. */
export class PoisonError extends Error {
  override name = 'PoisonError';
}

/** A transient failure (the default class of any error the engine is not told is permanent). */
export class FlakyError extends Error {
  override name = 'FlakyError';
}

export function createTestEngine(storeFile: string, leaseMs = 1_000): { idempotency: Idempotency; close(): Promise<void> } {
  const store = createSqliteStore({ filename: storeFile, synchronous: 'NORMAL' });
  const idempotency = createIdempotency({
    store,
    leaseMs,
    ttlMs: 3_600_000,
    isPermanent: (error) => error instanceof Error && error.name === 'PoisonError',
  });
  return { idempotency, close: () => store.close() };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 25 ms until it is true; throws after `timeoutMs` with `what` in the message. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
