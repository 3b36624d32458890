/** `@idempotency-builder/runtime/functions`: idempotent plain functions and methods. */
export {
  makeIdempotent,
  idempotencyContext,
  keyFromValue,
  type MakeIdempotentOptions,
  type IdempotentFunction,
  type KeySelector,
  type PayloadSelector,
  type ScopeSelector,
} from './make-idempotent.js';
export { Idempotent, type IdempotentDecorator, type IdempotentDecoratorOptions } from './idempotent-decorator.js';
export { readPath, type Path, type PathValue, type KeyPath, type KeyValue } from './path.js';
