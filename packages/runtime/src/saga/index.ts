/** `@idempotency-builder/runtime/saga`: multi-step actions that resume from the first incomplete step and compensate in reverse. */
export { defineSaga, type Saga, type SagaOptions, type SagaRunOptions } from './define-saga.js';
export { stepKey, compensationKey } from './saga-keys.js';
export type * from './saga-types.js';
