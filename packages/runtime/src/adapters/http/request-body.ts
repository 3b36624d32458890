/**
 * Reading a request body for its fingerprint, whatever its content type, within `maxRequestBytes`:
 * JSON (`application/json` and every `+json` type) is parsed, a form is parsed into name -> values,
 * text stays text, other bytes stay bytes; multipart is refused (415), because its random boundary
 * makes every retry's bytes differ and so no fingerprint of it could recognise a retry.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { concatBytes, toBytes } from './body-collector.js';
import { RequestBodyError } from './request-errors.js';

/** Default cap on a request body read for the fingerprint: 1 MiB, as `maxBodyBytes` for responses. */
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

export interface RequestBodyOptions {
  /**
   * Largest request body the middleware reads to fingerprint it; a larger one is answered 413
   * (`body_too_large`) before anything is claimed, and memory stays bounded by it. Default 1 MiB.
   */
  readonly maxRequestBytes?: number;
}

/**
 * Validates `maxRequestBytes` once, at creation.
 * @example resolveMaxRequestBytes(undefined) // 1048576
 */
export function resolveMaxRequestBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_REQUEST_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidOptionsError('Option "maxRequestBytes" must be an integer >= 0.');
  }
  return value;
}

/**
 * The media type of a Content-Type header, lower case, without parameters (`''` when absent).
 * @example mediaTypeOf('Application/Merchant+JSON; charset=utf-8') // 'application/merchant+json'
 */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * `application/json` and every structured-syntax `+json` type (RFC 6839).
 * @example isJsonMediaType('application/problem+json') // true
 */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]*\+json$/.test(mediaType);
}

/**
 * Refuses a body whose announced length is over the cap, before a byte of it is read.
 * @example checkAnnouncedLength('2000000', 1024 * 1024) // throws body_too_large
 */
export function checkAnnouncedLength(contentLength: string | undefined, maxBytes: number): void {
  if (contentLength === undefined) return;
  const length = Number(contentLength);
  if (Number.isFinite(length) && length > maxBytes) throw new RequestBodyError('body_too_large');
}

/**
 * Reads a body stream to its end, or throws `body_too_large` as soon as it passes `maxBytes`
 * (then stops reading: memory stays within the cap whatever the client sends).
 * @example const bytes = await readBounded(req[Symbol.asyncIterator](), 1024 * 1024);
 */
export async function readBounded(source: AsyncIterator<unknown>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await source.next();
    if (next.done) return concatBytes(chunks);
    const chunk = toBytes(next.value);
    size += chunk.byteLength;
    if (size > maxBytes) {
      // Not awaited: cancelling one branch of a tee'd web stream settles only once the other
      // branch is cancelled too, which the handler's branch never will be here.
      void Promise.resolve(source.return?.()).catch(() => {});
      throw new RequestBodyError('body_too_large');
    }
    chunks.push(chunk);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A form body as name -> value (or values, for a repeated name), like `express.urlencoded()`. */
function parseForm(text: string): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = form[name];
    form[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return form;
}

/**
 * The body as the fingerprint reads it, from its raw bytes and Content-Type: parsed JSON,
 * a parsed form, text, or the bytes; `undefined` when empty. Invalid JSON or UTF-8 in a JSON
 * body throws `invalid_body`; multipart throws `unsupported_media_type`.
 * @example interpretBody(new TextEncoder().encode('{"a":1}'), 'application/vnd.api+json') // { a: 1 }
 */
export function interpretBody(bytes: Uint8Array, contentType: string | undefined): unknown {
  if (bytes.byteLength === 0) return undefined;
  const mediaType = mediaTypeOf(contentType);
  if (mediaType.startsWith('multipart/')) throw new RequestBodyError('unsupported_media_type');
  if (isJsonMediaType(mediaType)) {
    try {
      return JSON.parse(strictUtf8.decode(bytes)) as unknown;
    } catch (error) {
      throw new RequestBodyError('invalid_body', { cause: error });
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded' || mediaType.startsWith('text/')) {
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      return bytes; // not UTF-8 after all: its exact bytes are still a deterministic fingerprint
    }
    return mediaType.startsWith('text/') ? text : parseForm(text);
  }
  return bytes; // no type, application/octet-stream, images…: the bytes themselves
}
