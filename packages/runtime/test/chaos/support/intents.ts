/**
 * Distinct intents driven to completion under faults: each intent is retried (same key) until it
 * is recorded, and its side effect — one line in an effects file, written at the END of the
 * action and only while the signal is not aborted — is counted. Invariant: one effect per intent.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import type { Idempotency } from '../../../src/core/engine.js';
import { IdempotencyError, InProgressError } from '../../../src/core/errors.js';
import { fingerprintFields } from '../../../src/core/fingerprint.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface IntentsReport {
  /** Error codes met along the way (store_unavailable while a connection was cut, …). */
  readonly codes: Record<string, number>;
  readonly attempts: number;
}

/**
 * Runs `count` intents (keys `${prefix}-<i>`), each retried until it ran or replayed, within `deadlineMs`.
 * @example const report = await driveIntents(idempotency, { prefix: 'cut', count: 50, effectsFile, actionMs: 20 });
 */
export async function driveIntents(
  idempotency: Idempotency,
  { prefix, count, effectsFile, actionMs, staggerMs = 0, deadlineMs = 30_000 }: { prefix: string; count: number; effectsFile: string; actionMs: number; staggerMs?: number; deadlineMs?: number },
): Promise<IntentsReport> {
  const codes: Record<string, number> = {};
  let attempts = 0;
  const stopAt = Date.now() + deadlineMs;
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const key = `${prefix}-${i}`;
      const fingerprint = fingerprintFields([prefix, i]);
      await sleep(i * staggerMs); // spread the intents over the scenario, so faults land mid-run
      while (Date.now() < stopAt) {
        attempts++;
        try {
          await idempotency.run({ key, scope: 'chaos', fingerprint }, async ({ signal }) => {
            await sleep(actionMs);
            // The effect is the last step, and only while this holder still owns the key.
            if (signal.aborted) throw signal.reason;
            appendFileSync(effectsFile, `${key}\n`);
            return key;
          });
          return;
        } catch (error) {
          const code = error instanceof IdempotencyError ? error.code : `unexpected: ${String(error)}`;
          codes[code] = (codes[code] ?? 0) + 1;
          await sleep(error instanceof InProgressError ? Math.min(error.retryAfterMs, 200) : 50);
        }
      }
      throw new Error(`intent ${key} did not complete within ${deadlineMs} ms`);
    }),
  );
  return { codes, attempts };
}

/** Effects per key, from the effects file. */
export function effectsByKey(effectsFile: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of readFileSync(effectsFile, 'utf8').split('\n').filter(Boolean)) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}
