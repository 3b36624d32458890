/**
 * What the runtime's key validation accepts, established by calling it — so the document states
 * the rule the generated code enforces, never a stricter one it does not.
 */
import { MAX_KEY_LENGTH, validateKey } from '@idempotency-builder/runtime';

const accepts = (key: string): boolean => {
  try {
    validateKey(key);
    return true;
  } catch {
    return false;
  }
};

/**
 * The runtime's key rule as facts: the length limit, and whether a short patterned key passes.
 * @example runtimeKeyRule().acceptsShort // true: the runtime accepts `k1`
 */
export function runtimeKeyRule(): { readonly maxLength: number; readonly acceptsShort: boolean; readonly rejectsSpace: boolean } {
  return { maxLength: MAX_KEY_LENGTH, acceptsShort: accepts('k1'), rejectsSpace: !accepts('a b') };
}
