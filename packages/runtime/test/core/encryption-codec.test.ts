/**
 * Encryption at rest (#9, #10) and hash-only storage: ciphertext bound to its record (key, scope,
 * record status, HTTP status, encoding), nothing plaintext at rest with a codec on (no JSONB copy),
 * and what a hash-only replay answers.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHttpIdempotency, type HttpRequestView, type HttpResponse } from '../../src/adapters/http/index.js';
import { ResponseUnreadableError, type CodecContext } from '../../src/core/codec.js';
import { createEncryptionCodec } from '../../src/core/encryption-codec.js';
import { createHashOnlyCodec, RESPONSE_DIGEST_HEADER } from '../../src/core/hash-only-codec.js';
import { createIdempotency, fingerprintFields, InvalidOptionsError } from '../../src/index.js';
import { responseParams } from '../../src/stores/postgres/row-mapping.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const alice: CodecContext = { key: 'pay-1', scope: 'alice', status: 'COMPLETED' };

describe('encryption at rest', () => {
  it('stores only ciphertext and replays the original value', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, codec: createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' }) });
    const request = { key: 'enc-1', scope: 'u', fingerprint: fingerprintFields(['x']) };
    const secret = { card: '4242424242424242', holder: 'Ada Lovelace' };
    await idem.run(request, async () => secret);
    const stored = (await store.get(request))!.response!;
    expect(stored.encoding).toBe('aes-256-gcm-bound:k1:json');
    expect(Buffer.from(stored.body).toString('latin1')).not.toContain('4242');
    expect(await idem.run(request, async () => 'never')).toEqual({ value: secret, replayed: true });
  });

  it('keeps headers secret, status readable, and decrypts old records after key rotation', async () => {
    const before = createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' });
    const after = createEncryptionCodec({ keys: { k1, k2 }, activeKeyId: 'k2' });
    const response = { statusCode: 201, headers: { location: '/payments/secret-id' }, body: new Uint8Array([0, 255, 7]), encoding: 'bytes' };
    const old = await before.encode(response, alice);
    expect(old.headers).toBeNull();
    expect(old.statusCode).toBe(201);
    expect(await after.decode(old, alice)).toEqual(response);
    expect((await after.encode(response, alice)).encoding).toBe('aes-256-gcm-bound:k2:bytes');
  });

  it('refuses tampered ciphertext or status with a typed error', async () => {
    const codec = createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' });
    const sealed = await codec.encode({ statusCode: 200, headers: null, body: new Uint8Array([1, 2, 3]), encoding: 'bytes' }, alice);
    const flipped = new Uint8Array(sealed.body);
    flipped[flipped.length - 1]! ^= 1;
    expect(() => codec.decode({ ...sealed, body: flipped }, alice)).toThrow(ResponseUnreadableError);
    expect(() => codec.decode({ ...sealed, statusCode: 500 }, alice)).toThrow(ResponseUnreadableError);
  });

  it('binds the ciphertext to key, scope and record status: copied elsewhere it does not decrypt', async () => {
    const codec = createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' });
    const sealed = await codec.encode({ statusCode: 201, headers: null, body: new Uint8Array([9]), encoding: 'bytes' }, alice);
    expect((await codec.decode(sealed, alice)).body).toEqual(new Uint8Array([9]));
    for (const elsewhere of [{ ...alice, scope: 'bob' }, { ...alice, key: 'pay-2' }, { ...alice, status: 'FAILED' as const }, { ...alice, scope: 'alic', key: 'epay-1' }]) {
      expect(() => codec.decode(sealed, elsewhere)).toThrow(ResponseUnreadableError);
    }
    expect(() => codec.encode({ statusCode: 201, headers: null, body: new Uint8Array(0), encoding: 'bytes' })).toThrow(/record/);
  });

  it('end to end: a response copied into another user\'s record is never replayed to them', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, codec: createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' }) });
    const http = createHttpIdempotency<unknown>({ idempotency, scope: (_ctx, view) => view.header('x-user') });
    const view = (user: string): HttpRequestView => ({ method: 'POST', path: '/pay', header: (name) => (name === 'x-user' ? user : name === 'idempotency-key' ? 'k-1' : undefined), body: () => ({ amount: 1 }) });
    const secret: HttpResponse = { status: 201, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"card":"4242"}') };
    expect((await http.handle(null, view('alice'), async () => secret)).kind).toBe('executed');
    expect((await http.handle(null, view('bob'), async () => ({ ...secret, body: new TextEncoder().encode('{"bob":1}') }))).kind).toBe('executed');
    // An attacker with write access to the table copies Alice's ciphertext into Bob's row.
    const aliceRecord = (await store.get({ key: 'k-1', scope: 'alice' }))!;
    const bobRecord = (await store.get({ key: 'k-1', scope: 'bob' }))!;
    const rows = (store as unknown as { records?: Map<string, unknown> }).records;
    expect(rows, 'the memory store keeps its rows in .records').toBeInstanceOf(Map);
    const bobId = [...rows!.entries()].find(([, row]) => row === bobRecord || (row as { scope?: string }).scope === 'bob')![0];
    rows!.set(bobId, { ...bobRecord, response: aliceRecord.response });
    const outcome = await http.handle(null, view('bob'), async () => secret);
    expect(outcome.kind).toBe('respond');
    const answer = (outcome as { response: HttpResponse }).response;
    expect(answer.status).toBe(500);
    expect(new TextDecoder().decode(answer.body)).toContain('response_unreadable');
    expect(new TextDecoder().decode(answer.body)).not.toContain('4242');
  });

  it('writes nothing plaintext with a codec on: no JSONB copy, no headers, no body text (PostgreSQL row)', async () => {
    const plain = { statusCode: null, headers: null, body: new TextEncoder().encode('{"card":"4242"}'), encoding: 'json' };
    expect(responseParams(plain, true)[4]).toBe('{"card":"4242"}'); // without a codec: the spec's readable copy
    for (const codec of [createEncryptionCodec({ keys: { k1 }, activeKeyId: 'k1' }), createHashOnlyCodec()]) {
      const params = responseParams(await codec.encode(plain, alice), true);
      expect(params[4]).toBeNull();
      expect(params[1]).toBeNull();
      expect(Buffer.from(params[3] as Buffer).toString('latin1')).not.toContain('4242');
    }
  });

  it('validates keys at creation', () => {
    expect(() => createEncryptionCodec({ keys: { k1: randomBytes(16) }, activeKeyId: 'k1' })).toThrow(InvalidOptionsError);
    expect(() => createEncryptionCodec({ keys: { k1 }, activeKeyId: 'nope' })).toThrow(/activeKeyId/);
  });
});

describe('hash-only storage', () => {
  it('keeps status and SHA-256 of the body; a replay answers the status, an empty body and the digest', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, codec: createHashOnlyCodec() });
    const http = createHttpIdempotency<unknown>({ idempotency, scope: () => 'alice' });
    const view: HttpRequestView = { method: 'POST', path: '/note', header: (name) => (name === 'idempotency-key' ? 'h-1' : undefined), body: () => ({ a: 1 }) };
    const body = new TextEncoder().encode('{"id":"note_1","email":"ada@example.com"}');
    await http.handle(null, view, async () => ({ status: 201, headers: { 'content-type': 'application/json', location: '/notes/1' }, body }));
    const stored = (await store.get({ key: 'h-1', scope: 'alice' }))!.response!;
    expect(stored.encoding).toBe('sha256:bytes');
    expect(stored.headers).toBeNull();
    expect(Buffer.from(stored.body).toString('hex')).toHaveLength(64);
    expect(Buffer.from(stored.body).toString('latin1')).not.toContain('ada@');
    const replay = await http.handle(null, view, async () => {
      throw new Error('must not run');
    });
    const response = (replay as { response: HttpResponse }).response;
    expect(response.status).toBe(201);
    expect(response.body.byteLength).toBe(0);
    expect(response.headers['idempotent-replayed']).toBe('true');
    expect(response.headers['content-type']).toBeUndefined();
    expect(response.headers[RESPONSE_DIGEST_HEADER]).toBe(Buffer.from(stored.body).toString('hex'));
  });
});
