/**
 * The request-body side of the HTTP fingerprint: unhashable JSON, content types, the size cap,
 * the query string and the collisions of issue 11 (#3, #4, #6, #8, #13), unit by unit.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FINGERPRINT,
  fetchRequestView,
  httpFingerprint,
  interpretBody,
  nodeRequestView,
  readBounded,
  RequestBodyError,
  resolveFingerprintOptions,
  resolveHttpOptions,
  resolveMaxRequestBytes,
  type HttpRequestView,
} from '../../src/adapters/http/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { assertHashable, UnhashableInputError } from '../../src/core/fingerprint.js';

function view(body: unknown, { query = '', headers = {} as Record<string, string> } = {}): HttpRequestView {
  return { method: 'POST', path: '/pay', query, header: (name) => headers[name], body: () => body };
}

const codeOf = async (promise: Promise<unknown>) => promise.then(() => 'none', (error: unknown) => (error instanceof RequestBodyError ? error.problem : String(error)));

describe('unhashable JSON (#3, #13)', () => {
  it.each([
    ['1e309', JSON.parse('{"a":1e309}')],
    ['a lone surrogate value', JSON.parse('{"a":"\\ud800"}')],
    ['a lone surrogate key', JSON.parse('{"\\udc00":1}')],
    ['20,000-deep nesting', JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)],
    ['2^53 + 1', JSON.parse('{"amount":9007199254740993}')],
  ])('refuses %s with invalid_body, without a stack overflow', async (_label, body) => {
    expect(await codeOf(httpFingerprint(view(body)))).toBe('invalid_body');
  });

  it('accepts what is exact: safe integers, fractions, paired surrogates, 200 levels', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    for (const value of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5e300 / 1e300, '\ud83d\ude00', deep]) expect(() => assertHashable(value)).not.toThrow();
    expect(() => assertHashable(2 ** 53)).toThrow(UnhashableInputError);
  });
});

describe('bodyFields: missing is not null (#13)', () => {
  it('gives a missing field and an explicit null different fingerprints', async () => {
    const options = { ...DEFAULT_FINGERPRINT, bodyFields: ['amount', 'currency'] };
    const [withNull, missing, again] = await Promise.all(
      [{ amount: 1, currency: null }, { amount: 1 }, { amount: 1, currency: null, note: 'x' }].map((body) => httpFingerprint(view(body), options)),
    );
    expect(withNull).not.toBe(missing);
    expect(again).toBe(withNull);
  });
});

describe('query string (#8)', () => {
  it('is part of the intent by default, sorted by name; off or selected on request', async () => {
    const print = (query: string, fingerprint = DEFAULT_FINGERPRINT) => httpFingerprint(view({ a: 1 }, { query }), fingerprint);
    expect(await print('amount=1&currency=EUR')).not.toBe(await print('amount=1000000&currency=EUR'));
    expect(await print('amount=1&currency=EUR')).toBe(await print('currency=EUR&amount=1'));
    expect(await print('')).toBe(await httpFingerprint(view({ a: 1 }))); // no query: as before the option existed
    const off = resolveFingerprintOptions({ query: false });
    expect(await print('amount=1', off)).toBe(await print('amount=2', off));
    const selected = resolveFingerprintOptions({ query: ['amount'] });
    expect(await print('amount=1&utm=a', selected)).toBe(await print('utm=b&amount=1', selected));
    expect(await print('amount=1', selected)).not.toBe(await print('amount=2', selected));
    expect(() => resolveFingerprintOptions({ query: 'yes' as never })).toThrow(InvalidOptionsError);
    expect(() => resolveFingerprintOptions({ query: [''] })).toThrow(InvalidOptionsError);
  });

  it('reaches the route: resolveHttpOptions keeps fingerprint.query (options.ts uses resolveFingerprintOptions)', () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    const scope = () => 'alice';
    expect(resolveHttpOptions({ idempotency, scope, fingerprint: { query: false } }).fingerprint.query).toBe(false);
    expect(resolveHttpOptions({ idempotency, scope, fingerprint: { query: ['amount'] } }).fingerprint.query).toEqual(['amount']);
    expect(() => resolveHttpOptions({ idempotency, scope, fingerprint: { query: 'yes' as never } })).toThrow(InvalidOptionsError);
  });
});

describe('content types (#4)', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('parses JSON and +json, forms, text; keeps other bytes; refuses multipart and bad JSON', () => {
    expect(interpretBody(bytes('{"a":1}'), 'application/problem+json; charset=utf-8')).toEqual({ a: 1 });
    expect({ ...(interpretBody(bytes('b=2&a=1&a=3'), 'application/x-www-form-urlencoded') as object) }).toEqual({ b: '2', a: ['1', '3'] });
    expect(interpretBody(bytes('hi'), 'text/plain')).toBe('hi');
    expect(interpretBody(bytes('hi'), undefined)).toBeInstanceOf(Uint8Array);
    expect(interpretBody(new Uint8Array(0), 'application/json')).toBeUndefined();
    expect(() => interpretBody(bytes('{bad'), 'application/json')).toThrow(RequestBodyError);
    expect(() => interpretBody(bytes('--x--'), 'multipart/form-data; boundary=x')).toThrow(expect.objectContaining({ problem: 'unsupported_media_type', statusCode: 415 }));
  });

  it('reads a Node body no parser read, leaves it parsed on req.body, and caps it', async () => {
    const make = (text: string, type: string) =>
      Object.assign(Readable.from([Buffer.from(text)]), { method: 'POST', url: '/pay?x=1', headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(text)) } });
    const request = make('{"b":1,"a":2}', 'application/merchant+json');
    const nodeView = nodeRequestView(request);
    expect(nodeView.query).toBe('x=1');
    expect(await nodeView.body()).toEqual({ b: 1, a: 2 });
    expect((request as unknown as { body: unknown }).body).toEqual({ b: 1, a: 2 });
    // Marked parsed as body-parser 1.x marks it: a parser after the middleware (routing-controllers') skips it.
    expect((request as unknown as { _body: unknown })._body).toBe(true);
    expect(await codeOf(Promise.resolve().then(() => nodeRequestView(make('x'.repeat(100), 'text/plain'), { maxRequestBytes: 10 }).body()))).toBe('body_too_large');
  });
});

describe('maxRequestBytes (#6)', () => {
  it('defaults to 1 MiB and is validated once', () => {
    expect(resolveMaxRequestBytes(undefined)).toBe(1024 * 1024);
    expect(() => resolveMaxRequestBytes(-1)).toThrow(InvalidOptionsError);
    expect(() => resolveMaxRequestBytes(1.5)).toThrow(InvalidOptionsError);
  });

  it('stops reading a stream at the cap, without a Content-Length', async () => {
    let pulled = 0;
    const source = (async function* () {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield new Uint8Array(1024);
      }
    })();
    expect(await codeOf(readBounded(source, 10 * 1024))).toBe('body_too_large');
    expect(pulled).toBeLessThanOrEqual(11);
  });

  it('refuses a fetch body over the cap by its Content-Length, and by counting when there is none', async () => {
    const announced = new Request('http://x/pay', { method: 'POST', body: 'x'.repeat(2048), headers: { 'content-length': '2048' } });
    expect(await codeOf(Promise.resolve(fetchRequestView(announced, { maxRequestBytes: 1024 }).body()))).toBe('body_too_large');
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(512));
      },
    });
    const chunked = new Request('http://x/pay', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(await codeOf(Promise.resolve(fetchRequestView(chunked, { maxRequestBytes: 4096 }).body()))).toBe('body_too_large');
  });
});
