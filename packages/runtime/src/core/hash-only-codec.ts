/**
 * Hash-only storage (spec section 8): for non-critical replays, keep the status code and the
 * SHA-256 of the body, never the body or its headers. A replay then answers the first status with
 * an empty body and `Idempotent-Response-SHA256: <hex>` (the digest of the body the first response
 * had), so a client can check it against what it received. Stored failures (`error+json`) keep
 * their few fields, since replaying a failure needs them.
 */
import { createHash } from 'node:crypto';
import type { ResponseCodec } from './codec.js';
import type { StoredResponse } from './record.js';

const PREFIX = 'sha256';
/** The replay header carrying the first body's digest (lower case, as stored headers are). */
export const RESPONSE_DIGEST_HEADER = 'idempotent-response-sha256';

/**
 * @example
 * const idempotency = createIdempotency({ store, codec: createHashOnlyCodec() }); // non-critical routes
 */
export function createHashOnlyCodec(): ResponseCodec {
  return {
    encode(response: StoredResponse): StoredResponse {
      if (response.encoding === 'error+json') return response;
      const digest = createHash('sha256').update(response.body).digest();
      return { statusCode: response.statusCode, headers: null, body: new Uint8Array(digest), encoding: `${PREFIX}:${response.encoding}` };
    },
    decode(response: StoredResponse): StoredResponse {
      if (!response.encoding.startsWith(`${PREFIX}:`)) return response;
      const inner = response.encoding.slice(PREFIX.length + 1);
      return {
        statusCode: response.statusCode,
        headers: { [RESPONSE_DIGEST_HEADER]: Buffer.from(response.body).toString('hex') },
        body: new Uint8Array(0),
        // An HTTP body ('bytes') replays as omitted, so its content headers are not sent either.
        encoding: inner === 'bytes' ? 'omitted' : inner,
      };
    },
  };
}
