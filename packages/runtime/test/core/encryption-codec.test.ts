import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEncryptionCodec, createIdempotency, fingerprintFields, InvalidOptionsError } from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);

describe('encryption at rest', () => {
  it('stores only ciphertext and replays the original value', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, codec: createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' }) });
    const request = { key: 'enc-1', scope: 'u', fingerprint: fingerprintFields(['x']) };
    const secret = { card: '4242424242424242', holder: 'Ada Lovelace' };
    await idem.run(request, async () => secret);
    const stored = (await store.get(request))!.response!;
    expect(stored.encoding).toBe('aes-256-gcm:k1:json');
    expect(Buffer.from(stored.body).toString('latin1')).not.toContain('4242');
    expect(await idem.run(request, async () => 'never')).toEqual({ value: secret, replayed: true });
  });

  it('keeps headers secret, status readable, and decrypts old records after key rotation', async () => {
    const before = createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' });
    const after = createEncryptionCodec({ keys: { k1, k2 }, activeKeyId: 'k2' });
    const response = { statusCode: 201, headers: { location: '/payments/secret-id' }, body: new Uint8Array([0, 255, 7]), encoding: 'bytes' };
    const old = await before.encode(response);
    expect(old.headers).toBeNull();
    expect(old.statusCode).toBe(201);
    expect(await after.decode(old)).toEqual(response);
    expect((await after.encode(response)).encoding).toBe('aes-256-gcm:k2:bytes');
  });

  it('refuses tampered ciphertext or status', async () => {
    const codec = createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' });
    const sealed = await codec.encode({ statusCode: 200, headers: null, body: new Uint8Array([1, 2, 3]), encoding: 'bytes' });
    const flipped = new Uint8Array(sealed.body);
    flipped[flipped.length - 1]! ^= 1;
    expect(() => codec.decode({ ...sealed, body: flipped })).toThrow();
    expect(() => codec.decode({ ...sealed, statusCode: 500 })).toThrow();
  });

  it('validates keys at creation', () => {
    expect(() => createEncryptionCodec({ keys: { k1: randomBytes(16) }, activeKeyId: 'k1' })).toThrow(InvalidOptionsError);
    expect(() => createEncryptionCodec({ keys: { k1 }, activeKeyId: 'nope' })).toThrow(/activeKeyId/);
  });
});
