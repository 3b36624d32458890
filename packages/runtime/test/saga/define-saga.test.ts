// defineSaga on the memory store: the sub-key records, resume after a transient failure, a
// compensation that fails for good, validation at definition, and the status of an unknown key.
import { describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { FingerprintMismatchError, InvalidOptionsError } from '../../src/core/errors.js';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { defineSaga } from '../../src/saga/define-saga.js';
import type { SagaState } from '../../src/saga/saga-types.js';

class Declined extends Error {}
const request = (key: string) => ({ key, scope: 'user_1', fingerprint: fingerprintFields([key]) });

function engine() {
  const store = createMemoryStore();
  return { store, idempotency: createIdempotency({ store, leaseMs: 1_000, isPermanent: (error) => error instanceof Declined }) };
}

describe('defineSaga', () => {
  it('stores each step under {key}:{step} and resumes after a transient failure without repeating a done step', async () => {
    const { store, idempotency } = engine();
    const ran: string[] = [];
    const transitions: SagaState[] = [];
    let flaky = 1;
    const saga = defineSaga(
      'order',
      [
        { name: 'a', run: () => (ran.push('a'), 1) },
        { name: 'b', run: ({ results }) => { ran.push('b'); if (flaky-- > 0) throw new Error('timeout'); return (results.a as number) + 1; } },
        { name: 'c', run: ({ results, key }) => (ran.push('c'), { b: results.b, key }) },
      ],
      { idempotency, onTransition: ({ state }) => void transitions.push(state) },
    );
    await expect(saga.run(request('o-1'), null)).rejects.toThrow('timeout');
    expect(await saga.status('o-1', 'user_1')).toMatchObject({ state: 'STEP_1_DONE', running: false });
    expect((await store.get({ key: 'o-1', scope: 'user_1' }))).toBeNull(); // the outer key was released
    expect((await store.get({ key: 'o-1:a', scope: 'user_1' }))?.status).toBe('COMPLETED');

    const outcome = await saga.run(request('o-1'), null);
    expect(outcome).toEqual({ state: 'COMPLETED', replayed: false, results: { a: 1, b: 2, c: { b: 2, key: 'o-1:c' } } });
    expect(ran).toEqual(['a', 'b', 'b', 'c']);
    expect(transitions).toEqual(['STEP_1_DONE', 'STEP_2_DONE', 'STEP_3_DONE', 'COMPLETED']);
  });

  it('a compensation that fails for good ends in COMPENSATION_FAILED, stored and replayed', async () => {
    const { idempotency } = engine();
    let undo = 0;
    const saga = defineSaga(
      'refund',
      [
        { name: 'a', run: () => 'a', compensate: () => { undo += 1; throw new Declined('cannot undo'); } },
        { name: 'b', run: () => { throw new Declined('no'); } },
      ],
      { idempotency },
    );
    expect(await saga.run(request('r-1'), null)).toMatchObject({ state: 'COMPENSATION_FAILED', failedStep: 'b', compensationStep: 'a', error: { message: 'cannot undo' } });
    expect(await saga.status('r-1', 'user_1')).toMatchObject({ state: 'COMPENSATION_FAILED', step: 'b' });
    expect(await saga.run(request('r-1'), null)).toMatchObject({ state: 'COMPENSATION_FAILED', replayed: true });
    expect(undo).toBe(1);
  });

  it('a first step failing for good rolls back with nothing to undo', async () => {
    const { idempotency } = engine();
    const saga = defineSaga('one', [{ name: 'a', run: () => { throw new Declined('no'); } }, { name: 'b', run: () => 'b' }], { idempotency });
    expect(await saga.run(request('f-1'), null)).toMatchObject({ state: 'ROLLED_BACK', failedStep: 'a' });
    expect(await saga.status('f-1', 'user_1')).toMatchObject({ state: 'ROLLED_BACK', steps: [{ name: 'a', run: 'FAILED' }, { name: 'b', run: 'PENDING' }] });
  });

  it('another saga reusing a key with the same fingerprint is refused; unknown keys have no status', async () => {
    const { idempotency } = engine();
    const first = defineSaga('first', [{ name: 'a', run: () => 1 }], { idempotency });
    const second = defineSaga('second', [{ name: 'a', run: () => 2 }], { idempotency });
    await first.run(request('k-1'), null);
    await expect(second.run(request('k-1'), null)).rejects.toBeInstanceOf(FingerprintMismatchError);
    expect(await first.status('nope', 'user_1')).toBeNull();
  });

  it('validates the definition once', () => {
    const { idempotency } = engine();
    expect(() => defineSaga('s', [], { idempotency })).toThrow(InvalidOptionsError);
    expect(() => defineSaga('s', [{ name: 'a:b', run: () => 1 }], { idempotency })).toThrow(InvalidOptionsError);
    expect(() => defineSaga('s', [{ name: 'a', run: () => 1 }, { name: 'a', run: () => 1 }], { idempotency })).toThrow(/twice/);
    expect(() => defineSaga('s', [{ name: 'a', run: 1 as never }], { idempotency })).toThrow(InvalidOptionsError);
    expect(() => defineSaga('s', [{ name: 'a', run: () => 1 }], {} as never)).toThrow(/idempotency/);
  });
});
