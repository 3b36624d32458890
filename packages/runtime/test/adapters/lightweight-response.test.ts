/**
 * `unreadBodyOf` answers only for a response that holds its unread body the way
 * @hono/node-server's does; everything else is left to the standard read.
 */
import { describe, expect, it } from 'vitest';
import { unreadBodyOf } from '../../src/adapters/http/lightweight-response.js';

/** A stand-in with the server's layout: `[status, body, headers]` under a symbol described "cache". */
function holding(cache: unknown, status = 201): Response {
  return Object.defineProperties({ [Symbol('cache')]: cache }, { status: { value: status } }) as unknown as Response;
}

describe('unreadBodyOf', () => {
  it('gives the held text, bytes or null', () => {
    expect(unreadBodyOf(holding([201, '{"a":1}', undefined]))).toBe('{"a":1}');
    const bytes = new Uint8Array([1, 2]);
    expect(unreadBodyOf(holding([201, bytes, undefined]))).toBe(bytes);
    expect(unreadBodyOf(holding([201, null, undefined]))).toBeNull();
  });

  it('is undefined for a native Response, a stream or Blob body, another status or another layout', () => {
    expect(unreadBodyOf(new Response('text'))).toBeUndefined();
    expect(unreadBodyOf(holding([201, new ReadableStream(), undefined]))).toBeUndefined();
    expect(unreadBodyOf(holding([201, new Blob(['x']), undefined]))).toBeUndefined();
    expect(unreadBodyOf(holding([200, 'text', undefined]))).toBeUndefined();
    expect(unreadBodyOf(holding({ status: 201, body: 'text' }))).toBeUndefined();
    expect(unreadBodyOf(holding(['201', 'text']))).toBeUndefined();
  });
});
