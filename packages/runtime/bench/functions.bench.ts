/**
 * makeIdempotent overhead on the memory store: the bare async function, the wrapped one with a new
 * key each call (select + hash + claim + run + complete), a replay of a completed key, and
 * `run()` called directly with the same work — so the wrapper's own share is visible.
 */
import { createIdempotency, fingerprintJson } from '@idempotency-builder/runtime';
import { makeIdempotent } from '@idempotency-builder/runtime/functions';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { compare, type BenchSuite } from './harness.js';

interface Order {
  id: string;
  tenant: string;
  amount: number;
  currency: string;
}

const suite: BenchSuite = {
  name: 'makeIdempotent overhead (memory store)',
  async run(report) {
    const idempotency = createIdempotency({ store: createMemoryStore(), ttlMs: 3_600_000 });
    const charge = async (order: Order) => ({ id: `ch_${order.id}`, amount: order.amount });
    const wrapped = makeIdempotent(charge, { idempotency, key: 'id', scope: (order) => order.tenant });
    const order = (id: string): Order => ({ id, tenant: 't-1', amount: 4999, currency: 'EUR' });
    const replayed = order('replayed');
    await wrapped(replayed);
    let n = 0;
    let m = 0;
    const rows = await compare([
      { label: 'bare async function (baseline)', fn: () => charge(order(`o${n++}`)) },
      { label: 'makeIdempotent: new key (claim + run + complete)', fn: () => wrapped(order(`w${n++}`)) },
      { label: 'makeIdempotent: replay of a completed key', fn: () => wrapped(replayed) },
      {
        label: 'run() directly with the same key/fingerprint work',
        fn: () => {
          const input = order(`r${m++}`);
          return idempotency.run({ key: `charge:${input.id}`, scope: input.tenant, fingerprint: fingerprintJson(input) }, () => charge(input));
        },
      },
    ]);
    report.table('makeIdempotent per-call overhead', rows);
  },
};

export default suite;
