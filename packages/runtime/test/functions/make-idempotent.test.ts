/** makeIdempotent on the memory store: once per intent, replays, typed selectors, context. */
import { describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { FingerprintMismatchError, InProgressError, InvalidKeyError, InvalidOptionsError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { idempotencyContext, makeIdempotent, readPath, type KeyPath } from '../../src/functions/index.js';

interface Order {
  id: string;
  tenant: string;
  amount: number;
  customer: { email: string; id: number };
  lines: { sku: string }[];
  requestId?: string;
}

const order = (over: Partial<Order> = {}): Order => ({
  id: 'o-1',
  tenant: 't-1',
  amount: 4999,
  customer: { email: 'a@example.com', id: 7 },
  lines: [{ sku: 'sku-1' }],
  ...over,
});

function setup() {
  const store = createMemoryStore();
  return { store, idempotency: createIdempotency({ store, leaseMs: 1_000 }) };
}

describe('makeIdempotent', () => {
  it('runs once per key and replays the stored result', async () => {
    const { idempotency } = setup();
    let runs = 0;
    const charge = makeIdempotent(
      async function charge(input: Order) {
        runs++;
        return { chargeId: `ch-${input.id}-${runs}`, amount: input.amount };
      },
      { idempotency, key: 'id', scope: (input) => input.tenant },
    );
    const first = await charge(order());
    const second = await charge(order({ requestId: 'retry-2' })); // excluded by default
    expect(first).toEqual({ chargeId: 'ch-o-1-1', amount: 4999 });
    expect(second).toEqual(first);
    expect(runs).toBe(1);
    await charge(order({ tenant: 't-2' })); // another scope is another intent
    expect(runs).toBe(2);
  });

  it('refuses the same key with another payload', async () => {
    const { idempotency } = setup();
    const charge = makeIdempotent(async (input: Order) => input.amount, { idempotency, key: 'id', scope: 'shop', name: 'charge' });
    await charge(order());
    await expect(charge(order({ amount: 1 }))).rejects.toBeInstanceOf(FingerprintMismatchError);
  });

  it('selects key and fingerprint by typed path or function', async () => {
    const { idempotency } = setup();
    let runs = 0;
    const notify = makeIdempotent(
      async (input: Order, channel: string) => {
        runs++;
        return `${channel}:${input.customer.email}`;
      },
      { idempotency, key: 'customer.id', fingerprint: (input, channel) => [input.customer, channel], scope: 'global', name: 'notify' },
    );
    expect(await notify(order(), 'mail')).toBe('mail:a@example.com');
    // amount is not in the selected payload: same intent, replayed
    expect(await notify(order({ amount: 1 }), 'mail')).toBe('mail:a@example.com');
    await expect(notify(order(), 'sms')).rejects.toBeInstanceOf(FingerprintMismatchError);
    expect(runs).toBe(1);
  });

  it('uses the argument value as a readable key, hashes values outside the key charset', async () => {
    const { idempotency, store } = setup();
    const byEmail = makeIdempotent(async (input: Order) => input.id, { idempotency, key: 'customer.email', scope: 's', name: 'byEmail' });
    const byId = makeIdempotent(async (input: Order) => input.id, { idempotency, key: 'id', scope: 's', name: 'byId' });
    await byEmail(order());
    await byId(order());
    const keys = [...store.records.values()].map((record) => record.key).sort();
    expect(keys[0]).toMatch(/^byEmail:h:[0-9a-f]{64}$/);
    expect(keys[1]).toBe('byId:o-1');
  });

  it('throws invalid_key when the selected value is missing, and never runs', async () => {
    const { idempotency } = setup();
    let runs = 0;
    const fn = makeIdempotent(
      async (input: { id?: string }) => {
        runs++;
        return input;
      },
      { idempotency, key: 'id', scope: 's', name: 'fn' },
    );
    await expect(fn({})).rejects.toBeInstanceOf(InvalidKeyError);
    expect(runs).toBe(0);
  });

  it('validates options at creation', () => {
    const { idempotency } = setup();
    expect(() => makeIdempotent(async (x: { id: string }) => x, { idempotency, key: 'id', scope: 's' })).toThrow(InvalidOptionsError);
    expect(() => makeIdempotent(async function f(x: { id: string }) { return x; }, { idempotency, key: 'id', scope: 'has space' })).toThrow(
      InvalidOptionsError,
    );
    expect(() =>
      makeIdempotent(async function f(x: { id: string }) { return x; }, { idempotency: {} as never, key: 'id', scope: 's' }),
    ).toThrow(InvalidOptionsError);
    expect(() => makeIdempotent(async function f(x: { id: string }) { return x; }, { idempotency, key: 42 as never, scope: 's' })).toThrow(
      InvalidOptionsError,
    );
  });

  it('keeps `this` and exposes the engine context to the function', async () => {
    const { idempotency } = setup();
    const service = {
      prefix: 'svc',
      seen: [] as boolean[],
      run: makeIdempotent(
        async function run(this: { prefix: string; seen: boolean[] }, input: { id: string }) {
          const context = idempotencyContext();
          this.seen.push(context?.signal instanceof AbortSignal && typeof context.lockVersion === 'number');
          return `${this.prefix}:${input.id}`;
        },
        { idempotency, key: 'id', scope: 's' },
      ),
    };
    expect(await service.run({ id: 'a' })).toBe('svc:a');
    expect(service.seen).toEqual([true]);
    expect(idempotencyContext()).toBeUndefined();
  });

  it('runs a flood of concurrent duplicates exactly once (waiters replay)', async () => {
    const { idempotency } = setup();
    let runs = 0;
    const slow = makeIdempotent(
      async (input: { id: string }) => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return input.id.toUpperCase();
      },
      { idempotency, key: 'id', scope: 's', name: 'slow', waitMs: 2_000 },
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => slow({ id: 'x' })));
    expect(results).toEqual(Array(20).fill('X'));
    expect(runs).toBe(1);
  });

  it('answers in_progress to a concurrent duplicate without waitMs', async () => {
    const { idempotency } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fn = makeIdempotent(async (input: { id: string }) => gate.then(() => input.id), { idempotency, key: 'id', scope: 's', name: 'gated' });
    const first = fn({ id: 'k' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(fn({ id: 'k' })).rejects.toBeInstanceOf(InProgressError);
    release();
    expect(await first).toBe('k');
  });

  it('checks paths at compile time', () => {
    type Input = { order: { id: string; lines: { sku: string }[]; meta: { note: string } } };
    const ok: KeyPath<Input> = 'order.id';
    const sku: KeyPath<Input> = 'order.lines.0.sku';
    // @ts-expect-error -- an object is not a key value
    const notAKey: KeyPath<Input> = 'order.meta';
    // @ts-expect-error -- no such property
    const typo: KeyPath<Input> = 'order.idd';
    expect([ok, sku, notAKey, typo]).toHaveLength(4);
    expect(readPath({ order: { lines: [{ sku: 's' }] } }, 'order.lines.0.sku')).toBe('s');
    expect(readPath({}, '__proto__.constructor')).toBeUndefined();
    const { idempotency } = setup();
    // @ts-expect-error -- the key path is checked against the wrapped function's argument
    makeIdempotent(async function f(input: Input) { return input; }, { idempotency, key: 'order.nope', scope: 's' });
  });
});
