/**
 * Serializers turn an action's result (or a permanent error) into a `StoredResponse` and back.
 * The engine's default keeps JSON; HTTP adapters bring one that keeps status, headers and bytes.
 */
import type { StoredFailure } from './errors.js';
import type { StoredResponse } from './record.js';

export interface ResultSerializer<T> {
  serialize(value: T): StoredResponse;
  deserialize(stored: StoredResponse): T;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();

/**
 * JSON results (the default). `undefined` is kept as an empty body so that actions returning
 * nothing replay as nothing.
 */
export const jsonSerializer: ResultSerializer<unknown> = {
  serialize(value) {
    const body = value === undefined ? new Uint8Array(0) : utf8.encode(JSON.stringify(value));
    return { statusCode: null, headers: null, body, encoding: 'json' };
  },
  deserialize(stored) {
    if (stored.encoding !== 'json') {
      throw new TypeError(`Stored response has encoding "${stored.encoding}", expected "json".`);
    }
    return stored.body.byteLength === 0 ? undefined : JSON.parse(text.decode(stored.body));
  },
};

/** Raw bytes, kept exactly. */
export const bytesSerializer: ResultSerializer<Uint8Array> = {
  serialize(value) {
    return { statusCode: null, headers: null, body: value, encoding: 'bytes' };
  },
  deserialize(stored) {
    return stored.body;
  },
};

export const FAILURE_ENCODING = 'error+json';

/** Turns a thrown value into the few fields worth replaying: no stack, no cause chain. */
export function toStoredFailure(error: unknown): StoredFailure {
  if (error instanceof Error) {
    const extra = error as Error & { code?: unknown; statusCode?: unknown; status?: unknown };
    const statusCode = typeof extra.statusCode === 'number' ? extra.statusCode : typeof extra.status === 'number' ? extra.status : undefined;
    // Subclasses that never set `name` still report 'Error'; their class name says more.
    const name = error.name === 'Error' && error.constructor.name ? error.constructor.name : error.name;
    return {
      name,
      message: error.message,
      ...(typeof extra.code === 'string' ? { code: extra.code } : {}),
      ...(statusCode !== undefined ? { statusCode } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}

export function serializeFailure(failure: StoredFailure): StoredResponse {
  return {
    statusCode: failure.statusCode ?? null,
    headers: null,
    body: utf8.encode(JSON.stringify(failure)),
    encoding: FAILURE_ENCODING,
  };
}

export function deserializeFailure(stored: StoredResponse): StoredFailure {
  return JSON.parse(text.decode(stored.body)) as StoredFailure;
}
