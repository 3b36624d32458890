/**
 * Idempotent plain functions: `makeIdempotent` and the `@Idempotent` method decorator on the
 * memory store. A retried call replays the first result; the same order id with another amount
 * is refused. Run: npx tsx examples/functions/charge-order.ts
 */
import { createIdempotency, FingerprintMismatchError } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { Idempotent, idempotencyContext, makeIdempotent } from '@idempotency-builder/runtime/functions';

interface Order {
  id: string;
  tenantId: string;
  amount: number;
  currency: string;
  requestId?: string; // differs per retry: left out of the fingerprint by default
}

const idempotency = createIdempotency({ store: createMemoryStore(), leaseMs: 5_000 });
let charges = 0;

/** The side effect that must happen once per order. */
async function chargeCard(order: Order): Promise<{ chargeId: string; amount: number }> {
  charges++;
  const signal = idempotencyContext()?.signal; // aborted if this call's lease is lost
  if (signal?.aborted) throw new Error('lease lost');
  return { chargeId: `ch_${order.id}_${charges}`, amount: order.amount };
}

const charge = makeIdempotent(chargeCard, {
  idempotency,
  key: 'id', // a typed path: 'idd' would not compile
  scope: (order) => order.tenantId,
  fingerprint: (order) => ({ amount: order.amount, currency: order.currency }),
});

class RefundService {
  refunds = 0;

  @Idempotent<[Order]>({ idempotency, key: 'id', scope: (order) => order.tenantId })
  async refund(order: Order): Promise<string> {
    this.refunds++;
    return `re_${order.id}`;
  }
}

const order: Order = { id: 'ord-1001', tenantId: 'shop-7', amount: 4999, currency: 'EUR', requestId: 'r-1' };
const first = await charge(order);
const retry = await charge({ ...order, requestId: 'r-2' });
console.log('first call  :', first);
console.log('retried call:', retry, '(replayed)');
try {
  await charge({ ...order, amount: 1 });
} catch (error) {
  console.log('same id, other amount:', error instanceof FingerprintMismatchError ? error.code : error);
}
const refunds = new RefundService();
await refunds.refund(order);
await refunds.refund(order);
console.log(`charges run: ${charges}, refunds run: ${refunds.refunds}`);
if (charges !== 1 || refunds.refunds !== 1 || retry.chargeId !== first.chargeId) process.exit(1);
