/**
 * The response codec: what happens to a stored response on its way to and from the store.
 * Identity by default; encryption at rest and hash-only storage plug in here without touching
 * stores or adapters.
 */
import type { StoredResponse } from './record.js';

export interface ResponseCodec {
  encode(response: StoredResponse): StoredResponse | Promise<StoredResponse>;
  decode(response: StoredResponse): StoredResponse | Promise<StoredResponse>;
}

export const identityCodec: ResponseCodec = {
  encode: (response) => response,
  decode: (response) => response,
};
