import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  buildKey,
  deriveIntent,
  fingerprintFields,
  fingerprintJson,
  fingerprintsEqual,
  InvalidKeyError,
  newClientIntent,
  validateKey,
} from '../../src/index.js';
import { fingerprintBytes, UnhashableInputError } from '../../src/core/fingerprint.js';

describe('keys', () => {
  it('accepts the spec charset up to 255 characters and nothing else', () => {
    expect(() => validateKey('usr_7fQ9x_createOrder_a1b2c3d4-uuid')).not.toThrow();
    expect(() => validateKey('a:b.c~d-e_f')).not.toThrow();
    expect(() => validateKey('x'.repeat(255))).not.toThrow();
    expect(() => validateKey('x'.repeat(256))).toThrow(InvalidKeyError);
    for (const bad of ['', ' ', 'a b', 'a\nb', 'a/b', 'a+b', 'ä', undefined, 42]) {
      expect(() => validateKey(bad)).toThrow(InvalidKeyError);
    }
  });

  it('builds {scope}_{action}_{intent} keys and refuses ambiguous parts', () => {
    expect(buildKey({ scope: 'usr-7fQ9x', action: 'createOrder', intent: 'a1b2' })).toBe('usr-7fQ9x_createOrder_a1b2');
    expect(() => buildKey({ scope: 'usr_7', action: 'createOrder', intent: 'a' })).toThrow(InvalidKeyError);
    expect(() => buildKey({ scope: 'u', action: '', intent: 'a' })).toThrow(InvalidKeyError);
  });

  it('derives the same intent from the same fields, and keeps field boundaries', () => {
    expect(deriveIntent(['cart_42', 'h1'])).toBe(deriveIntent(['cart_42', 'h1']));
    expect(deriveIntent(['a|b', 'c'])).not.toBe(deriveIntent(['a', 'b|c']));
    expect(deriveIntent(['cart_42'])).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes UUIDv4 client intents', () => {
    expect(newClientIntent()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('fingerprints', () => {
  it('hashes an explicit field list unambiguously', () => {
    expect(fingerprintFields([4999, 'EUR', 'acct_xyz'])).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintFields(['a|b', 'c'])).not.toBe(fingerprintFields(['a', 'b|c']));
    expect(fingerprintFields([0])).not.toBe(fingerprintFields(['0']));
    expect(fingerprintFields([null])).not.toBe(fingerprintFields(['null']));
    expect(fingerprintFields([null])).not.toBe(fingerprintFields([undefined]));
  });

  it('is injective over field lists (property)', () => {
    const field = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.array(field, { maxLength: 4 }), fc.array(field, { maxLength: 4 }), (a, b) => {
        const same = JSON.stringify(a) === JSON.stringify(b);
        return same === (fingerprintFields(a) === fingerprintFields(b));
      }),
      { numRuns: 500 },
    );
  });

  it('ignores key order and excluded fields in canonical JSON, but not content', () => {
    const a = fingerprintJson({ amount: 4999, currency: 'EUR', meta: { b: 1, a: 2 }, requestId: 'r1' });
    const b = fingerprintJson({ meta: { a: 2, b: 1 }, currency: 'EUR', amount: 4999, requestId: 'r2' });
    expect(a).toBe(b);
    expect(fingerprintJson({ amount: 5000, currency: 'EUR' })).not.toBe(fingerprintJson({ amount: 4999, currency: 'EUR' }));
    expect(fingerprintJson({ a: { t: 1, x: 1 } }, { exclude: ['a.t'] })).toBe(fingerprintJson({ a: { x: 1, t: 2 } }, { exclude: ['a.t'] }));
    expect(fingerprintJson({ timestamp: 1 }, { exclude: [] })).not.toBe(fingerprintJson({ timestamp: 2 }, { exclude: [] }));
  });

  it('keeps the SHA-256 of the canonical text, whichever hashing API computes it (stored records depend on it)', () => {
    const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
    expect(fingerprintJson({ b: 1, a: 'é€😀' })).toBe(sha256('{"a":"é€😀","b":1}'));
    expect(fingerprintFields([4999, 'EUR', null])).toBe(sha256('number:4:4999|string:3:EUR|n'));
    const bytes = new Uint8Array([0, 255, 128, 10]).subarray(1, 3);
    expect(fingerprintBytes(bytes)).toBe(sha256(Buffer.from([255, 128])));
    expect(fingerprintBytes('naïve')).toBe(sha256(Buffer.from('naïve', 'utf8')));
  });

  it('compares in constant time and rejects different lengths', () => {
    const f = fingerprintFields(['x']);
    expect(fingerprintsEqual(f, f)).toBe(true);
    expect(fingerprintsEqual(f, fingerprintFields(['y']))).toBe(false);
    expect(fingerprintsEqual(f, f.slice(1))).toBe(false);
  });
});

describe('values the fingerprint refuses (issue 11 #3, #13)', () => {
  it('throws a typed UnhashableInputError instead of crashing or colliding', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
    const cases: Array<[unknown, string]> = [
      [{ amount: Infinity }, 'non_finite_number'],
      [{ amount: 2 ** 53 + 2 }, 'unsafe_integer'],
      [{ note: '\ud800' }, 'lone_surrogate'],
      [deep, 'too_deep'],
    ];
    for (const [value, reason] of cases) expect(() => fingerprintJson(value)).toThrow(expect.objectContaining({ reason }));
    expect(() => fingerprintFields(['\udfff'])).toThrow(UnhashableInputError);
    // Before: both lone surrogates became U+FFFD in UTF-8 and hashed alike.
    expect(() => fingerprintFields(['\ud800'])).toThrow(UnhashableInputError);
  });
});
