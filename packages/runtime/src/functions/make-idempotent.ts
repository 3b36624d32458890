/**
 * `makeIdempotent(fn, options)`: the same function, run at most once per (scope, key) while its
 * record lives; retries get the stored result. Built on the engine's public `run()` only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActionContext, Idempotency, RunOptions } from '../core/engine.js';
import { InvalidKeyError, InvalidOptionsError } from '../core/errors.js';
import { DEFAULT_EXCLUDED_PATHS, fingerprintFields, fingerprintJson } from '../core/fingerprint.js';
import { MAX_KEY_LENGTH, validateScope } from '../core/key.js';
import { readPath, type KeyPath, type KeyValue, type Path } from './path.js';

/** Selects the key value: a function of the arguments, or a typed path into the first argument. */
export type KeySelector<Args extends unknown[]> = ((...args: Args) => KeyValue | null | undefined) | KeyPath<Args[0]>;
/** Selects the payload to fingerprint: a function of the arguments, or a path into the first one. */
export type PayloadSelector<Args extends unknown[]> = ((...args: Args) => unknown) | Path<Args[0]>;
/** The scope: a constant (an account id, or `'global'` by explicit choice) or a function of the arguments. */
export type ScopeSelector<Args extends unknown[]> = string | ((...args: Args) => string);

export interface MakeIdempotentOptions<Args extends unknown[], R> extends RunOptions<R> {
  readonly idempotency: Idempotency;
  /** Which argument value names the intent, e.g. `'order.id'` or `(order) => order.id`. */
  readonly key: KeySelector<Args>;
  /** User / account / tenant the key belongs to. */
  readonly scope: ScopeSelector<Args>;
  /**
   * The significant payload; its RFC 8785 canonical JSON is hashed (`fingerprintJson`). Default:
   * the first argument (all arguments when there are several). A retry with the same key and a
   * different payload is refused with `fingerprint_mismatch`.
   */
  readonly fingerprint?: PayloadSelector<Args>;
  /** Payload paths left out of the fingerprint. Default `DEFAULT_EXCLUDED_PATHS`. */
  readonly exclude?: readonly string[];
  /**
   * Namespace of the keys, so two functions keyed by the same order id never share a record.
   * Default: the function's name (required when the function is anonymous).
   */
  readonly name?: string;
}

/** The wrapped function: same parameters and `this`, always async. */
export type IdempotentFunction<F extends (...args: any[]) => unknown> = ( // eslint-disable-line @typescript-eslint/no-explicit-any
  this: ThisParameterType<F>,
  ...args: Parameters<F>
) => Promise<Awaited<ReturnType<F>>>;

const NAME = /^[A-Za-z0-9_.~-]{1,100}$/;
const KEY_PART = /^[A-Za-z0-9_.:~-]+$/;
const contextStore = new AsyncLocalStorage<ActionContext>();

/**
 * The engine's context of the idempotent call running now (`signal`, `lockVersion`,
 * `reclaimed`), or `undefined` outside one — the wrapped function keeps its signature, so this is
 * how it reaches the lease signal.
 * @example
 * const charge = makeIdempotent(async (order: Order) => {
 *   const signal = idempotencyContext()?.signal;
 *   return psp.charge(order, { signal });
 * }, { idempotency, key: 'id', scope: 'shop-1' });
 */
export function idempotencyContext(): ActionContext | undefined {
  return contextStore.getStore();
}

/** Options compiled once at creation: each call only selects and hashes. */
export interface CompiledCall<Args extends unknown[], R> {
  readonly key: (args: Args) => string;
  readonly scope: (args: Args) => string;
  readonly fingerprint: (args: Args) => string;
  readonly runOptions: RunOptions<R>;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new InvalidOptionsError(
      'Option "name" must be 1..100 chars of [A-Za-z0-9_.~-]; anonymous or bound functions need an explicit name.',
    );
  }
  return name;
}

/**
 * Key from the selected value: ids that fit the key charset are kept readable; anything else
 * (an e-mail, a composite object) is hashed, which is just as stable across retries.
 */
export function keyFromValue(name: string, value: unknown): string {
  if (value === undefined || value === null || value === '') {
    throw new InvalidKeyError(`The key selector of "${name}" found no value in the arguments.`);
  }
  const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
  if (text !== undefined && KEY_PART.test(text) && name.length + 1 + text.length <= MAX_KEY_LENGTH) return `${name}:${text}`;
  const hash = text !== undefined ? fingerprintFields([text]) : fingerprintJson(value, { exclude: [] });
  return `${name}:h:${hash}`;
}

/** Compiles the selectors; `name` is resolved by the caller (function name or decorated method). */
export function compileCall<Args extends unknown[], R>(
  options: Omit<MakeIdempotentOptions<Args, R>, 'idempotency' | 'name'>,
  name: () => string,
): CompiledCall<Args, R> {
  const { key, scope, fingerprint, exclude = DEFAULT_EXCLUDED_PATHS, ...runOptions } = options;
  const selectKey =
    typeof key === 'function' ? (args: Args) => key(...args) : typeof key === 'string' ? (args: Args) => readPath(args[0], key) : undefined;
  if (!selectKey) throw new InvalidOptionsError('Option "key" must be a dot path into the first argument or a function of the arguments.');
  let selectScope: (args: Args) => string;
  if (typeof scope === 'string') {
    try {
      validateScope(scope);
    } catch (error) {
      throw new InvalidOptionsError(`Option "scope": ${(error as Error).message}`);
    }
    selectScope = () => scope;
  } else if (typeof scope === 'function') {
    selectScope = (args) => scope(...args);
  } else {
    throw new InvalidOptionsError('Option "scope" is required: an account/tenant id, "global", or a function of the arguments.');
  }
  let selectPayload: (args: Args) => unknown;
  if (fingerprint === undefined) selectPayload = (args) => (args.length === 1 ? args[0] : args);
  else if (typeof fingerprint === 'function') selectPayload = (args) => fingerprint(...args);
  else if (typeof fingerprint === 'string') selectPayload = (args) => readPath(args[0], fingerprint);
  else throw new InvalidOptionsError('Option "fingerprint" must be a dot path or a function of the arguments.');
  if (!Array.isArray(exclude)) throw new InvalidOptionsError('Option "exclude" must be an array of dot paths.');
  return {
    key: (args) => keyFromValue(name(), selectKey(args)),
    scope: selectScope,
    fingerprint: (args) => fingerprintJson(selectPayload(args), { exclude }),
    runOptions,
  };
}

/** One protected call: select, hash, then `run()` with the context made visible to `fn`. */
export async function callIdempotent<Args extends unknown[], R>(
  compiled: CompiledCall<Args, R>,
  idempotency: Idempotency,
  fn: (this: unknown, ...args: Args) => R | Promise<R>,
  thisArg: unknown,
  args: Args,
): Promise<R> {
  const request = { key: compiled.key(args), scope: compiled.scope(args), fingerprint: compiled.fingerprint(args) };
  const { value } = await idempotency.run<R>(
    request,
    (context) => contextStore.run(context, () => fn.apply(thisArg, args)),
    compiled.runOptions,
  );
  return value;
}

/**
 * Wraps `fn` so that each intent (key within scope) runs once; a retry with the same key gets
 * the stored result (JSON by default — pass `serializer` for Dates, Maps or bytes), a concurrent
 * one `in_progress` (or waits with `waitMs`), one with another payload `fingerprint_mismatch`.
 * Options are validated now, not on the first call.
 * @example
 * import { makeIdempotent } from '@idempotency-builder/runtime/functions';
 * const chargeOrder = makeIdempotent(
 *   async (order: { id: string; tenant: string; amount: number }) => psp.charge(order.amount),
 *   { idempotency, key: 'id', scope: (order) => order.tenant },
 * );
 * await chargeOrder({ id: 'o-1', tenant: 't-1', amount: 4999 }); // runs
 * await chargeOrder({ id: 'o-1', tenant: 't-1', amount: 4999 }); // replays the stored result
 */
export function makeIdempotent<F extends (...args: any[]) => unknown>( // eslint-disable-line @typescript-eslint/no-explicit-any
  fn: F,
  options: MakeIdempotentOptions<Parameters<F>, Awaited<ReturnType<F>>>,
): IdempotentFunction<F> {
  if (typeof fn !== 'function') throw new InvalidOptionsError('makeIdempotent() needs a function to wrap.');
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('makeIdempotent() needs an options object.');
  const { idempotency, name: explicitName, ...rest } = options;
  if (typeof idempotency?.run !== 'function') {
    throw new InvalidOptionsError('Option "idempotency" must be the engine from createIdempotency().');
  }
  const name = checkName(explicitName ?? fn.name);
  const compiled = compileCall<Parameters<F>, Awaited<ReturnType<F>>>(rest, () => name);
  const target = fn as unknown as (this: unknown, ...args: Parameters<F>) => Awaited<ReturnType<F>>;
  return function idempotent(this: ThisParameterType<F>, ...args: Parameters<F>) {
    return callIdempotent(compiled, idempotency, target, this, args);
  };
}

export { checkName as validateFunctionName };
