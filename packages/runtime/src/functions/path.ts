/**
 * Typed dot paths into a function's argument (`'order.id'`): the typed counterpart of Powertools'
 * eventKeyJmesPath. The path is checked against the argument type at compile time and read
 * without eval at run time.
 */

type Primitive = string | number | bigint | boolean | symbol | null | undefined | Date | ((...args: never[]) => unknown);
/** Depth counter: paths stop at four segments so large SDK types (a Stripe event) stay cheap to check. */
type Prev = [never, 0, 1, 2];
type Keys<T> = keyof T & (string | number);

type IsAny<T> = 0 extends 1 & T ? true : false;
/** `any` and `unknown` accept any string: a decorator used without type arguments. */
type Untyped<T> = IsAny<T> extends true ? true : unknown extends T ? true : false;

/**
 * Every dot path into `T`, up to four segments deep. Array elements are addressed by index
 * (`'items.0.sku'`). Deeper or dynamic selections take a function instead.
 * @example const p: Path<{ order: { id: string } }> = 'order.id';
 */
export type Path<T> = Untyped<T> extends true ? string : PathsOf<T, 3>;

type PathsOf<T, D extends number> = [D] extends [never]
  ? never
  : T extends Primitive
    ? never
    : T extends readonly (infer E)[]
      ? `${number}` | `${number}.${PathsOf<NonNullable<E>, Prev[D]>}`
      : { [K in Keys<T>]: `${K}` | `${K}.${PathsOf<NonNullable<T[K]>, Prev[D]>}` }[Keys<T>];

/** The values an idempotency key can be made from. */
export type KeyValue = string | number | bigint;

/**
 * Paths (up to four segments) whose value is a key value — string, number or bigint, possibly
 * optional: `'order'` is refused for a key when it is an object. Computed in one pass, so a big
 * argument type costs one walk, not one per path.
 * @example const k: KeyPath<{ order: { id: string; lines: string[] } }> = 'order.id'; // 'order.lines' is an error
 */
export type KeyPath<T> = Untyped<T> extends true ? string : KeyPathsOf<T, 3>;

type KeyPathsOf<T, D extends number> = [D] extends [never]
  ? never
  : T extends Primitive
    ? never
    : T extends readonly (infer E)[]
      ? (NonNullable<E> extends KeyValue ? `${number}` : never) | `${number}.${KeyPathsOf<NonNullable<E>, Prev[D]>}`
      : {
          [K in Keys<T>]: (NonNullable<T[K]> extends KeyValue ? `${K}` : never) | `${K}.${KeyPathsOf<NonNullable<T[K]>, Prev[D]>}`;
        }[Keys<T>];

/**
 * The type found at path `P` in `T` (`undefined` joins in when a step is optional).
 * @example type Id = PathValue<{ order?: { id: string } }, 'order.id'>; // string | undefined
 */
export type PathValue<T, P extends string> =
  IsAny<T> extends true
    ? any // eslint-disable-line @typescript-eslint/no-explicit-any
    : P extends `${infer Head}.${infer Rest}`
      ? PathValue<StepInto<T, Head>, Rest>
      : StepInto<T, P>;

type StepInto<T, K extends string> =
  T extends null | undefined
    ? undefined
    : T extends readonly (infer E)[]
      ? K extends `${number}`
        ? E | undefined
        : never
      : K extends keyof T
        ? T[K]
        : never;

/**
 * Reads a dot path at run time; a missing step gives `undefined`, never a throw. Only own
 * properties are followed, so `'__proto__.x'` or `'constructor.name'` read nothing.
 * @example readPath({ order: { id: 'o-1' } }, 'order.id') // 'o-1'
 */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
