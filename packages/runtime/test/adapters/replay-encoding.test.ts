/**
 * Replays of a body stored content-coded: decoded for a retry that refuses the coding, left as
 * stored for one that accepts it, for a coding Node cannot decode and for a body that does not
 * decode.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/adapters/http/http-response.js';
import { acceptsCoding, decodedForRetry } from '../../src/adapters/http/replay-encoding.js';

const text = JSON.stringify({ id: 'pay_1', lines: Array.from({ length: 50 }, (_, index) => `line ${index}`) });
const plain = new TextEncoder().encode(text);
const replay = (encoding: string, body: Uint8Array): HttpResponse => ({
  status: 201,
  headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'idempotent-replayed': 'true' },
  body,
});
const decoded = (response: HttpResponse) => new TextDecoder().decode(response.body);

describe('acceptsCoding', () => {
  it('reads Accept-Encoding as RFC 9110 does', () => {
    expect(acceptsCoding(undefined, 'gzip')).toBe(true); // no header: anything goes
    expect(acceptsCoding('', 'gzip')).toBe(false); // empty: no coding wanted
    expect(acceptsCoding('identity', 'gzip')).toBe(false);
    expect(acceptsCoding('gzip, deflate, br', 'br')).toBe(true);
    expect(acceptsCoding('GZIP', 'gzip')).toBe(true);
    expect(acceptsCoding('gzip;q=0, br', 'gzip')).toBe(false);
    expect(acceptsCoding('gzip ; q=0.5', 'gzip')).toBe(true);
    expect(acceptsCoding('*', 'br')).toBe(true);
    expect(acceptsCoding('*;q=0, gzip', 'br')).toBe(false);
    expect(acceptsCoding('*;q=0, gzip', 'gzip')).toBe(true);
    expect(acceptsCoding('x-gzip', 'gzip')).toBe(true);
    expect(acceptsCoding('gzip', 'x-gzip')).toBe(true);
  });
});

describe('decodedForRetry', () => {
  for (const [coding, body] of [
    ['gzip', gzipSync(plain)],
    ['x-gzip', gzipSync(plain)],
    ['deflate', deflateSync(plain)],
    ['deflate', deflateRawSync(plain)],
    ['br', brotliCompressSync(plain)],
  ] as const) {
    it(`decodes ${coding} for a retry that refuses it, and leaves it for one that takes it`, async () => {
      const stored = replay(coding, body);
      const forIdentity = await decodedForRetry(stored, 'identity');
      expect(decoded(forIdentity)).toBe(text);
      expect(forIdentity.headers).toEqual({ 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      expect(forIdentity.status).toBe(201);
      expect(await decodedForRetry(stored, `${coding === 'x-gzip' ? 'gzip' : coding}, identity`)).toBe(stored);
      expect(await decodedForRetry(stored, undefined)).toBe(stored);
    });
  }

  it('undoes several codings in reverse order', async () => {
    const stored = replay('gzip, br', brotliCompressSync(gzipSync(plain)));
    expect(decoded(await decodedForRetry(stored, 'identity'))).toBe(text);
    // Accepting one of the two is not enough.
    expect(decoded(await decodedForRetry(stored, 'gzip'))).toBe(text);
  });

  it('sends as stored what it cannot decode: an unknown coding, a corrupt body, no body', async () => {
    const unknown = replay('zstd', new Uint8Array([40, 181, 47, 253, 0]));
    expect(await decodedForRetry(unknown, 'identity')).toBe(unknown);
    const corrupt = replay('gzip', new Uint8Array([31, 139, 8, 0, 1, 2, 3]));
    expect(await decodedForRetry(corrupt, 'identity')).toBe(corrupt);
    const empty = replay('gzip', new Uint8Array(0));
    expect(await decodedForRetry(empty, 'identity')).toBe(empty);
  });

  it('stops decoding past its cap and sends the body as stored', async () => {
    const bomb = replay('gzip', gzipSync(Buffer.alloc(65 * 1024 * 1024)));
    expect(await decodedForRetry(bomb, 'identity')).toBe(bomb);
  });
});
