/**
 * Reading the Idempotency-Key header: a plain token (`abc-123`, the de-facto form) or the IETF
 * draft's Structured-Field String (`"abc-123"`, RFC 8941 §3.3.3, parameters allowed and ignored).
 */
import { IdempotencyError } from '../../core/errors.js';
import { MAX_KEY_LENGTH, validateKey } from '../../core/key.js';

export type ParsedKey =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly reason: string };

// RFC 8941 §3.1.2: a parameter is `;` key [ `=` bare-item ]. Their values never change the key.
const PARAMETERS = /^(?:[ \t]*;[ \t]*[a-z*][a-z0-9_.*-]*(?:=(?:"(?:[^"\\]|\\["\\])*"|[^;"]*))?)*$/;

/** Parses an sf-string starting at index 0; returns the unescaped content and the rest. */
function parseSfString(value: string): { content: string; rest: string } | null {
  let content = '';
  for (let index = 1; index < value.length; index++) {
    const char = value[index]!;
    if (char === '\\') {
      const next = value[index + 1];
      if (next !== '"' && next !== '\\') return null;
      content += next;
      index++;
    } else if (char === '"') {
      return { content, rest: value.slice(index + 1) };
    } else {
      const code = char.charCodeAt(0);
      if (code < 0x20 || code > 0x7e) return null;
      content += char;
    }
  }
  return null; // no closing quote
}

/**
 * Parses the header value and validates the key the way the engine will.
 * Several header lines (an array, or values a proxy joined with commas) are `invalid`: which one
 * the client meant cannot be known, and guessing could pair a key with the wrong request.
 * @example
 * parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"') // { kind: 'key', key: '8e03…' }
 * parseIdempotencyKey(undefined) // { kind: 'missing' }
 */
export function parseIdempotencyKey(header: string | readonly string[] | undefined, maxKeyLength = MAX_KEY_LENGTH): ParsedKey {
  if (header === undefined) return { kind: 'missing' };
  if (Array.isArray(header)) {
    if (header.length === 0) return { kind: 'missing' };
    if (header.length > 1) return { kind: 'invalid', reason: 'More than one idempotency key header was sent.' };
  }
  const value = (typeof header === 'string' ? header : header[0]!).trim();
  if (value === '') return { kind: 'missing' };

  let key = value;
  if (value.startsWith('"')) {
    const parsed = parseSfString(value);
    if (parsed === null || !PARAMETERS.test(parsed.rest)) {
      return { kind: 'invalid', reason: 'The idempotency key is not a valid quoted string.' };
    }
    key = parsed.content;
  }
  return checkedKey(key, maxKeyLength);
}

/**
 * A key read from the request, validated the way the engine will: `key`, or `invalid` with the
 * engine's reason. Shared by the header and the body source.
 * @example checkedKey('ord_1', 255) // { kind: 'key', key: 'ord_1' }
 */
export function checkedKey(key: string, maxKeyLength: number): ParsedKey {
  try {
    validateKey(key, maxKeyLength);
  } catch (error) {
    if (error instanceof IdempotencyError) return { kind: 'invalid', reason: error.message };
    throw error;
  }
  return { kind: 'key', key };
}
