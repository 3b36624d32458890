/**
 * The body of a Response that nothing has read yet, without reading it, where the runtime keeps
 * it at hand: @hono/node-server (since 1.3) replaces the global `Response` with a lightweight one
 * that holds `[status, body, headers]` under its own symbol (described `cache`) until something
 * touches `.body`, and writes a response that still holds them straight from there. Reading
 * `.body` instead builds an undici Response and a web stream first (on Node 20 about a third of
 * the CPU an idempotent Hono request adds, docs/benchmarks.md). The shape is checked, and anything
 * else — a native Response, a stream or Blob body, another layout — is `undefined`: the caller
 * then reads the body the standard way.
 */

const isCache = (value: unknown): value is readonly [number, string | Uint8Array | null, ...unknown[]] =>
  Array.isArray(value) &&
  value.length >= 2 &&
  typeof value[0] === 'number' &&
  (value[1] === null || typeof value[1] === 'string' || value[1] instanceof Uint8Array);

/**
 * The unread body of a @hono/node-server Response (text, bytes, or null for none), or
 * `undefined` when it is not one whose body is at hand.
 * @example const body = unreadBodyOf(response); if (body === undefined) await response.arrayBuffer();
 */
export function unreadBodyOf(response: Response): string | Uint8Array | null | undefined {
  for (const symbol of Object.getOwnPropertySymbols(response)) {
    if (symbol.description !== 'cache') continue;
    const cache: unknown = (response as unknown as Record<symbol, unknown>)[symbol];
    return isCache(cache) && cache[0] === response.status ? cache[1] : undefined;
  }
  return undefined;
}
