/**
 * Child process of the saga crash tests: runs the checkout saga on the configured store and, at
 * the named transition (e.g. `STEP_1_DONE:reserve`), tells the parent and stalls until SIGKILL.
 */
import { checkoutSaga, openEffects, openStore, type SagaConfig } from './saga-fixture.js';

export interface WorkerConfig extends SagaConfig {
  readonly key: string;
  readonly scope: string;
  readonly fingerprint: string;
  /** `${state}:${step}` at which to stall. */
  readonly hangAt?: string;
  readonly waitMs: number;
}

export type WorkerMessage =
  | { type: 'hung'; state: string; step: string | null }
  | { type: 'done'; state: string }
  | { type: 'error'; message: string };

const config = JSON.parse(process.argv[2]!) as WorkerConfig;
setInterval(() => {}, 60_000);
const { store } = await openStore(config.store);
const effects = openEffects(config.effectsFile);
const { saga } = checkoutSaga(config, store, effects, async ({ state, step }) => {
  if (`${state}:${step}` !== config.hangAt) return;
  process.send!({ type: 'hung', state, step } satisfies WorkerMessage);
  await new Promise<never>(() => {});
});
try {
  const outcome = await saga.run({ key: config.key, scope: config.scope, fingerprint: config.fingerprint }, { orderId: config.key, amount: 4200 }, { waitMs: config.waitMs });
  process.send!({ type: 'done', state: outcome.state } satisfies WorkerMessage);
} catch (error) {
  process.send!({ type: 'error', message: String(error) } satisfies WorkerMessage);
}
