/**
 * The saga scenarios of issue 13, run once per store (one line per store file, like the store
 * conformance suite): SIGKILL between every pair of steps → each step ran exactly once; a
 * permanent failure of step 2 → step 1 compensated once, ROLLED_BACK, replayed on retry; a
 * compensation crashed midway resumes; two attempts at once → one runs, the other in_progress.
 * Effects are counted in a SQLite file outside every process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InProgressError } from '../../../src/core/errors.js';
import { fingerprintFields } from '../../../src/core/fingerprint.js';
import { spawnWorker } from '../../stores/workers/spawn-worker.js';
import { checkoutSaga, openEffects, openStore, type SagaConfig, type StoreConfig } from './saga-fixture.js';
import type { WorkerConfig, WorkerMessage } from './saga-worker.js';

export interface SagaSuiteOptions {
  readonly name: string;
  /** false, or the reason the store's server is absent. */
  readonly skip: false | string;
  /** A fresh store config per test (its own file, table or prefix). */
  readonly storeFor: (label: string) => StoreConfig;
  readonly cleanup?: () => Promise<void>;
}

const LEASE_MS = 300;
const WAIT_MS = 3_000;

export function runSagaSuite({ name, skip, storeFor, cleanup }: SagaSuiteOptions): void {
  const dir = mkdtempSync(join(tmpdir(), `idem-saga-${name}-`));
  const effectsFile = join(dir, 'effects.db');
  afterAll(async () => {
    await cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  const scenario = (label: string, extra: Partial<SagaConfig> = {}) => {
    const store = storeFor(`${label}_${++n}`);
    const key = `order-${label}-${n}`;
    const config: SagaConfig = { store, effectsFile, leaseMs: LEASE_MS, ...extra };
    const request = { key, scope: 'user_42', fingerprint: fingerprintFields([key, 4200]) };
    const worker = (hang: Partial<WorkerConfig>) =>
      spawnWorker<WorkerMessage>('../../saga/support/saga-worker.ts', { ...config, ...request, waitMs: WAIT_MS, ...hang } satisfies WorkerConfig);
    return { config, request, key, worker };
  };

  /** Runs a worker until it reports `hung`, then SIGKILLs it. */
  async function crashAt(run: ReturnType<typeof scenario>, hang: Partial<WorkerConfig>) {
    const child = run.worker(hang);
    const hung = await child.next('hung', 30_000);
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    return hung;
  }

  /** The saga in this process, over its own store connection. */
  async function inProcess(config: SagaConfig) {
    const opened = await openStore(config.store);
    const effects = openEffects(config.effectsFile);
    const { saga } = checkoutSaga(config, opened.store, effects);
    return { saga, effects, close: async () => (effects.close(), await opened.close()) };
  }

  describe.skipIf(skip !== false)(`saga on ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('SIGKILL between every pair of steps, then a retry: COMPLETED and each step ran exactly once', async () => {
      const run = scenario('kill');
      const local = await inProcess(run.config);
      try {
        await crashAt(run, { hangAt: 'STEP_1_DONE:reserve' });
        expect(await local.saga.status(run.key, run.request.scope)).toMatchObject({ state: 'STEP_1_DONE', step: 'reserve' });
        await crashAt(run, { hangAt: 'STEP_2_DONE:charge' });
        expect(await local.saga.status(run.key, run.request.scope)).toMatchObject({ state: 'STEP_2_DONE', step: 'charge' });
        expect(local.effects.counts(run.key)).toEqual({ 'run:charge': 1, 'run:reserve': 1 });

        const outcome = await local.saga.run(run.request, { orderId: run.key, amount: 4200 }, { waitMs: WAIT_MS });
        expect(outcome).toMatchObject({ state: 'COMPLETED', replayed: false, results: { reserve: { reserve: 'reserve-ok' }, confirm: { confirm: 'confirm-ok' } } });
        expect(local.effects.counts(run.key)).toEqual({ 'run:charge': 1, 'run:confirm': 1, 'run:reserve': 1 });
        expect(await local.saga.status(run.key, run.request.scope)).toMatchObject({ state: 'COMPLETED', running: false });
        const again = await local.saga.run(run.request, { orderId: run.key, amount: 4200 });
        expect(again).toMatchObject({ state: 'COMPLETED', replayed: true });
        expect(local.effects.counts(run.key)).toEqual({ 'run:charge': 1, 'run:confirm': 1, 'run:reserve': 1 });
      } finally {
        await local.close();
      }
    });

    it('step 2 fails permanently: step 1 compensated once, ROLLED_BACK stored, a retry answers ROLLED_BACK', async () => {
      const run = scenario('fail', { failStep: 'charge' });
      const local = await inProcess(run.config);
      try {
        const outcome = await local.saga.run(run.request, { orderId: run.key, amount: 4200 });
        expect(outcome).toMatchObject({ state: 'ROLLED_BACK', failedStep: 'charge', replayed: false, error: { name: 'PermanentStepError', message: 'charge declined' } });
        expect(local.effects.counts(run.key)).toEqual({ 'compensate:reserve': 1, 'run:reserve': 1 });
        const status = await local.saga.status(run.key, run.request.scope);
        expect(status).toMatchObject({ state: 'ROLLED_BACK', step: 'charge' });
        expect(status?.steps).toEqual([
          { name: 'reserve', run: 'DONE', compensation: 'DONE' },
          { name: 'charge', run: 'FAILED', compensation: 'PENDING' },
          { name: 'confirm', run: 'PENDING', compensation: null },
        ]);
        const retry = await local.saga.run(run.request, { orderId: run.key, amount: 4200 });
        expect(retry).toMatchObject({ state: 'ROLLED_BACK', failedStep: 'charge', replayed: true });
        expect(local.effects.counts(run.key)).toEqual({ 'compensate:reserve': 1, 'run:reserve': 1 });
      } finally {
        await local.close();
      }
    });

    it('a compensation crashed midway resumes: between compensations, and inside one; each undo once', async () => {
      const run = scenario('comp', { failStep: 'confirm' });
      const local = await inProcess(run.config);
      try {
        await crashAt(run, { hangAt: 'COMPENSATING:charge' }); // charge undone, reserve not yet
        expect(await local.saga.status(run.key, run.request.scope)).toMatchObject({ state: 'COMPENSATING' });
        await crashAt(run, { hangInCompensation: 'reserve' }); // inside reserve's undo, before its effect
        expect(local.effects.counts(run.key)).toEqual({ 'compensate:charge': 1, 'run:charge': 1, 'run:reserve': 1 });

        const outcome = await local.saga.run(run.request, { orderId: run.key, amount: 4200 }, { waitMs: WAIT_MS });
        expect(outcome).toMatchObject({ state: 'ROLLED_BACK', failedStep: 'confirm' });
        expect(local.effects.counts(run.key)).toEqual({ 'compensate:charge': 1, 'compensate:reserve': 1, 'run:charge': 1, 'run:reserve': 1 });
        expect(await local.saga.status(run.key, run.request.scope)).toMatchObject({ state: 'ROLLED_BACK' });
      } finally {
        await local.close();
      }
    });

    it('two attempts of one saga at once: one runs, the other gets in_progress', async () => {
      const run = scenario('race', { slowMs: 300 });
      const a = await inProcess(run.config);
      const b = await inProcess(run.config); // a second engine and connection: no shared single-flight
      try {
        const results = await Promise.allSettled([a.saga.run(run.request, { orderId: run.key, amount: 4200 }), b.saga.run(run.request, { orderId: run.key, amount: 4200 })]);
        const done = results.filter((r) => r.status === 'fulfilled');
        const refused = results.filter((r) => r.status === 'rejected');
        expect(done).toHaveLength(1);
        expect(done[0]!.status === 'fulfilled' && done[0]!.value.state).toBe('COMPLETED');
        expect(refused).toHaveLength(1);
        expect(refused[0]!.status === 'rejected' && refused[0]!.reason).toBeInstanceOf(InProgressError);
        expect(a.effects.counts(run.key)).toEqual({ 'run:charge': 1, 'run:confirm': 1, 'run:reserve': 1 });
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
