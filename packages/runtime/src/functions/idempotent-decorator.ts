/**
 * `@Idempotent({...})`: the method form of `makeIdempotent`, one function that works both as a
 * TC39 standard decorator and as a legacy `experimentalDecorators` one (NestJS services).
 */
import type { Idempotency } from '../core/engine.js';
import { InvalidOptionsError } from '../core/errors.js';
import { callIdempotent, compileCall, validateFunctionName, type MakeIdempotentOptions } from './make-idempotent.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- decorator signatures must accept any method */
type AsyncMethod = (this: any, ...args: any[]) => Promise<unknown>;

export interface IdempotentDecoratorOptions<Args extends unknown[], R, This = any>
  extends Omit<MakeIdempotentOptions<Args, R>, 'idempotency'> {
  /**
   * The engine, or a getter called with the instance on each call — for DI containers where the
   * engine is injected into the service after the class is defined.
   */
  readonly idempotency: Idempotency | ((instance: This) => Idempotency);
}

/** Both decorator call shapes; TypeScript picks the one its `experimentalDecorators` setting uses. */
export interface IdempotentDecorator {
  /** TC39 standard decorator (TypeScript 5+ without `experimentalDecorators`). */
  <M extends AsyncMethod>(value: M, context: ClassMethodDecoratorContext<ThisParameterType<M>, M>): M;
  /** Legacy decorator (`experimentalDecorators: true`, e.g. NestJS). */
  <M extends AsyncMethod>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>): TypedPropertyDescriptor<M> | void;
}

/**
 * The class that declares `method` under `name`, found by walking up from the receiver — so a
 * subclass inheriting the method keeps the declaring class's key namespace.
 */
function declaringName(receiver: unknown, name: string, method: unknown): string | undefined {
  let holder: unknown = receiver;
  while (holder !== null && (typeof holder === 'object' || typeof holder === 'function')) {
    if (Object.getOwnPropertyDescriptor(holder, name)?.value === method) {
      return typeof holder === 'function' ? (holder as { name: string }).name : (holder as { constructor?: { name?: string } }).constructor?.name;
    }
    holder = Object.getPrototypeOf(holder);
  }
  return undefined;
}

/**
 * Makes an async method idempotent. Type arguments give the method's parameters so that paths
 * are checked: `@Idempotent<[Order]>({ key: 'id', ... })`. The key namespace defaults to
 * `ClassName.method` of the declaring class; pass `name` when the build minifies class names.
 * @example
 * class PaymentsService {
 *   constructor(readonly idempotency: Idempotency) {}
 *   @Idempotent<[ChargeInput]>({ idempotency: (self: PaymentsService) => self.idempotency, key: 'orderId', scope: (input) => input.tenantId })
 *   async charge(input: ChargeInput) { return this.psp.charge(input); }
 * }
 */
export function Idempotent<Args extends unknown[] = any[], R = any, This = any>(
  options: IdempotentDecoratorOptions<Args, R, This>,
): IdempotentDecorator {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('@Idempotent() needs an options object.');
  const { idempotency, name: explicitName, ...rest } = options;
  const resolveEngine =
    typeof idempotency === 'function'
      ? (self: unknown) => (idempotency as (instance: This) => Idempotency)(self as This)
      : typeof idempotency?.run === 'function'
        ? () => idempotency
        : undefined;
  if (!resolveEngine) throw new InvalidOptionsError('Option "idempotency" must be the engine or a getter (instance) => engine.');
  if (explicitName !== undefined) validateFunctionName(explicitName);

  function wrap(method: AsyncMethod, methodName: string, ownerHint: string | undefined): AsyncMethod {
    if (typeof method !== 'function') throw new InvalidOptionsError('@Idempotent() decorates methods only.');
    let name = explicitName;
    const compiled = compileCall<Args, R>(rest, () => name!);
    const replacement = function (this: unknown, ...args: unknown[]) {
      if (name === undefined) {
        const owner = ownerHint ?? declaringName(this, methodName, replacement) ?? 'anonymous';
        name = validateFunctionName(`${owner}.${methodName}`);
      }
      const engine = resolveEngine!(this);
      if (typeof engine?.run !== 'function') throw new InvalidOptionsError('The "idempotency" getter returned no engine.');
      return callIdempotent(compiled, engine, method as (this: unknown, ...a: Args) => Promise<R>, this, args as Args);
    };
    return replacement;
  }

  return function decorate(target: unknown, contextOrKey: unknown, descriptor?: PropertyDescriptor): any {
    if (typeof contextOrKey === 'object' && contextOrKey !== null && 'kind' in contextOrKey) {
      const context = contextOrKey as ClassMethodDecoratorContext;
      if (context.kind !== 'method') throw new InvalidOptionsError('@Idempotent() decorates methods only.');
      return wrap(target as AsyncMethod, String(context.name), undefined);
    }
    if (!descriptor || typeof descriptor.value !== 'function') throw new InvalidOptionsError('@Idempotent() decorates methods only.');
    const owner = typeof target === 'function' ? (target as { name: string }).name : (target as { constructor?: { name?: string } })?.constructor?.name;
    descriptor.value = wrap(descriptor.value as AsyncMethod, String(contextOrKey), owner);
    return descriptor;
  } as IdempotentDecorator;
}
