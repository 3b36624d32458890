/**
 * Where a message's idempotency key comes from: the producer's message id (a broker's delivery
 * tag, offset or receipt is per delivery and would make every redelivery look new), or — opt-in,
 * weaker — a hash of the payload.
 */
import { InvalidKeyError } from '../../core/errors.js';
import { fingerprintBytes, fingerprintJson } from '../../core/fingerprint.js';
import { MAX_KEY_LENGTH } from '../../core/key.js';

/**
 * `message-id` (default): the producer's id, or the message is dead-lettered as invalid.
 * `message-id-or-payload`: the id when present, else the payload hash.
 * `payload`: always the payload hash. Weaker: two intents with identical payloads (two equal
 * top-ups) collapse into one, and a producer that changes one byte of a retry makes a new key.
 */
export type KeySource = 'message-id' | 'message-id-or-payload' | 'payload';

export const KEY_SOURCES: readonly KeySource[] = ['message-id', 'message-id-or-payload', 'payload'];

/** A message without a producer message id, under `keyFrom: 'message-id'`. */
export class MissingMessageIdError extends InvalidKeyError {
  constructor(where: string) {
    super(`The message has no producer message id (${where}); set it on the producer, or opt in to keyFrom: 'message-id-or-payload'.`);
  }
}

const VALID_KEY = /^[A-Za-z0-9_.:~-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fingerprint of a payload: canonical JSON (RFC 8785, minus `DEFAULT_EXCLUDED_PATHS` such as
 * `timestamp`) when the bytes are JSON, so a re-serialized retry still matches; raw bytes otherwise.
 * @example payloadFingerprint(Buffer.from('{"b":1,"a":2}')) === payloadFingerprint(Buffer.from('{"a":2,"b":1}'))
 */
export function payloadFingerprint(payload: Uint8Array | string): string {
  let text: string;
  try {
    text = typeof payload === 'string' ? payload : utf8.decode(payload);
  } catch {
    return fingerprintBytes(payload);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fingerprintBytes(text);
  }
  return fingerprintJson(value);
}

/**
 * The key for one message. A producer id that is a valid key is used as is; any other id
 * (spaces, slashes, over 255 chars) becomes `h:<sha256 of the id>` so it stays stable.
 * @example messageKey({ messageId: 'order-42', payload, keyFrom: 'message-id', where: 'properties.messageId' }) // 'order-42'
 */
export function messageKey({
  messageId,
  payload,
  keyFrom,
  where,
}: {
  messageId: string | undefined | null;
  payload: Uint8Array | string;
  keyFrom: KeySource;
  where: string;
}): string {
  const id = keyFrom === 'payload' || messageId === '' ? undefined : (messageId ?? undefined);
  if (id !== undefined) return VALID_KEY.test(id) && id.length <= MAX_KEY_LENGTH ? id : `h:${fingerprintBytes(id)}`;
  if (keyFrom === 'message-id') throw new MissingMessageIdError(where);
  return `p:${payloadFingerprint(payload)}`;
}
