/**
 * Encryption at rest for stored responses (AES-256-GCM, node:crypto). Response bodies can hold
 * PII or card data; with this codec the store only ever sees ciphertext (headers are encrypted
 * with the body; the status code stays readable for operations). Each ciphertext is bound to its
 * record: the authenticated data is the key, the scope, the record status, the HTTP status and the
 * encoding, so a response copied into another row does not decrypt. Keys rotate: new records use
 * `activeKeyId`, old records decrypt with whichever key id they name.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ResponseUnreadableError, type CodecContext, type ResponseCodec } from './codec.js';
import { InvalidOptionsError } from './errors.js';
import type { StoredResponse } from './record.js';

export interface EncryptionCodecOptions {
  /** Key id -> 32-byte key. Ids: 1–32 chars of [A-Za-z0-9_-]. */
  readonly keys: Readonly<Record<string, Uint8Array>>;
  /** The key new records are encrypted with. */
  readonly activeKeyId: string;
}

/** Bound to the record (key, scope, record status): what every new record gets. */
const BOUND = 'aes-256-gcm-bound';
/** Written before the binding existed: authenticated data is encoding and status code only. */
const LEGACY = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const utf8 = new TextEncoder();
const text = new TextDecoder();

/** Length-prefixed, so no key/scope pair can be shifted into another with the same bytes. */
function boundAad(encoding: string, statusCode: number | null, context: CodecContext): Uint8Array {
  const part = (value: string) => `${value.length}:${value}`;
  return utf8.encode(['v2', part(encoding), statusCode ?? '', context.status, part(context.scope), part(context.key)].join('|'));
}

function requireContext(context: CodecContext | undefined): CodecContext {
  if (context === undefined) {
    throw new TypeError('The encryption codec binds a response to its record: the engine must pass { key, scope, status }.');
  }
  return context;
}

/**
 * @example
 * const codec = createEncryptionCodec({ keys: { k2026: Buffer.from(process.env.IDEM_KEY!, 'base64') }, activeKeyId: 'k2026' });
 * const idempotency = createIdempotency({ store, codec });
 */
export function createEncryptionCodec({ keys, activeKeyId }: EncryptionCodecOptions): ResponseCodec {
  for (const [id, key] of Object.entries(keys ?? {})) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new InvalidOptionsError(`Encryption key id "${id}" must be 1-32 chars of [A-Za-z0-9_-].`);
    if (!(key instanceof Uint8Array) || key.byteLength !== 32) throw new InvalidOptionsError(`Encryption key "${id}" must be 32 bytes.`);
  }
  if (!keys?.[activeKeyId]) throw new InvalidOptionsError(`Option "activeKeyId" names no key in "keys".`);

  return {
    encode(response: StoredResponse, context?: CodecContext): StoredResponse {
      const bound = requireContext(context);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keys[activeKeyId]!, iv);
      const encoding = `${BOUND}:${activeKeyId}:${response.encoding}`;
      cipher.setAAD(boundAad(encoding, response.statusCode, bound));
      const headers = utf8.encode(JSON.stringify(response.headers));
      const lengthPrefix = Buffer.alloc(4);
      lengthPrefix.writeUInt32BE(headers.byteLength);
      const ciphertext = Buffer.concat([cipher.update(lengthPrefix), cipher.update(headers), cipher.update(response.body), cipher.final()]);
      return { statusCode: response.statusCode, headers: null, body: Buffer.concat([iv, cipher.getAuthTag(), ciphertext]), encoding };
    },
    decode(response: StoredResponse, context?: CodecContext): StoredResponse {
      const [prefix, keyId, ...inner] = response.encoding.split(':');
      if (prefix !== BOUND && prefix !== LEGACY) return response; // written before encryption was enabled
      const key = keys[keyId ?? ''];
      if (!key) throw new ResponseUnreadableError(`No decryption key "${keyId}" for a stored response.`);
      const aad = prefix === BOUND ? boundAad(response.encoding, response.statusCode, requireContext(context)) : utf8.encode(`${response.encoding}|${response.statusCode ?? ''}`);
      try {
        const body = Buffer.from(response.body);
        const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
        decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        decipher.setAAD(aad);
        const plain = Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
        const headersLength = plain.readUInt32BE(0);
        const headers = JSON.parse(text.decode(plain.subarray(4, 4 + headersLength))) as StoredResponse['headers'];
        return { statusCode: response.statusCode, headers, body: new Uint8Array(plain.subarray(4 + headersLength)), encoding: inner.join(':') };
      } catch (error) {
        // GCM says only "unauthenticated": tampered, or copied from another record. Never replay it.
        throw new ResponseUnreadableError('A stored response failed authentication: it was altered or belongs to another record.', { cause: error });
      }
    },
  };
}
