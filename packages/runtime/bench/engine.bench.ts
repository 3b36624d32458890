/**
 * Engine overhead: one protected `run()` on the memory store (new key each time, so every call
 * claims, runs and completes) and one replay, against calling the action directly.
 */
import { createIdempotency, fingerprintFields } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { compare, type BenchSuite } from './harness.js';

const suite: BenchSuite = {
  name: 'engine overhead (memory store)',
  async run(report) {
    const idem = createIdempotency({ store: createMemoryStore(), ttlMs: 3_600_000 });
    const fingerprint = fingerprintFields([4999, 'EUR', 'acct_xyz']);
    const action = async () => ({ id: 'pay_1', amount: 4999 });
    let n = 0;
    await idem.run({ key: 'replayed', scope: 'u', fingerprint }, action);
    const rows = await compare([
      { label: 'action called directly (baseline)', fn: action },
      { label: 'run(): claim + action + complete, new key', fn: () => idem.run({ key: `k${n++}`, scope: 'u', fingerprint }, action) },
      { label: 'run(): replay of a completed key', fn: () => idem.run({ key: 'replayed', scope: 'u', fingerprint }, action) },
    ]);
    report.table('Engine overhead per call', rows);
  },
};

export default suite;
