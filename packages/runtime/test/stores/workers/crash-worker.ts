/**
 * Child process for the SQLite crash test: claims a key through the ENGINE, records its side
 * effect, tells the parent it is mid-action, and then hangs (heartbeat running) until the parent
 * kills it with SIGKILL — no finally, no release, exactly like a crashed worker.
 */
import { appendFileSync } from 'node:fs';
import { createIdempotency } from '../../../src/core/engine.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';

export interface CrashConfig {
  readonly filename: string;
  readonly effectsFile: string;
  readonly key: string;
  readonly scope: string;
  readonly fingerprint: string;
  readonly leaseMs: number;
}

export type CrashMessage = { type: 'started'; pid: number; lockVersion: number; reclaimed: boolean };

const config = JSON.parse(process.argv[2]!) as CrashConfig;
const store = createSqliteStore({ filename: config.filename });
const idempotency = createIdempotency({ store, leaseMs: config.leaseMs, ttlMs: 60_000 });

setInterval(() => {}, 60_000); // keep the process alive while the action hangs
await idempotency.run({ key: config.key, scope: config.scope, fingerprint: config.fingerprint }, async ({ lockVersion, reclaimed }) => {
  appendFileSync(config.effectsFile, `crashed-worker ${process.pid}\n`);
  process.send!({ type: 'started', pid: process.pid, lockVersion, reclaimed } satisfies CrashMessage);
  return new Promise<never>(() => {}); // mid-action forever: only SIGKILL ends this
});
