/**
 * The response codec: what happens to a stored response on its way to and from the store.
 * Identity by default; encryption at rest (`createEncryptionCodec`) and hash-only storage
 * (`createHashOnlyCodec`) plug in here without touching stores or adapters.
 */
import { IdempotencyError } from './errors.js';
import type { RecordStatus, StoredResponse } from './record.js';

/**
 * The record a response belongs to. The engine passes it to every encode and decode, so a codec
 * can bind a response to its record: an encrypted response copied into another row (another
 * user's, another key's, a FAILED one's) then fails to decode instead of replaying there.
 */
export interface CodecContext {
  readonly key: string;
  readonly scope: string;
  /** The status the record has (decode) or is being given (encode). */
  readonly status: Exclude<RecordStatus, 'PROCESSING'>;
}

export interface ResponseCodec {
  /**
   * `context` is the record's identity. Optional in the type only so that codecs written for the
   * one-argument port keep compiling; the engine always passes it, and a binding codec refuses
   * to encode without it.
   */
  encode(response: StoredResponse, context?: CodecContext): StoredResponse | Promise<StoredResponse>;
  decode(response: StoredResponse, context?: CodecContext): StoredResponse | Promise<StoredResponse>;
}

export const identityCodec: ResponseCodec = {
  encode: (response) => response,
  decode: (response) => response,
};

/**
 * A stored response its codec cannot read back: tampered with, copied from another record, or
 * encrypted with a key that is no longer configured. Never replayed; HTTP answers 500
 * `response_unreadable` (a server-side integrity fault, not something the client sent).
 */
export class ResponseUnreadableError extends IdempotencyError {
  constructor(message: string, options?: { cause?: unknown }) {
    // Cast until errors.ts lists 'response_unreadable' (requested from the lead).
    super('response_unreadable', message, options);
  }
}
