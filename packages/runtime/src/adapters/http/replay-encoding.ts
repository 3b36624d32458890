/**
 * A replay in a content coding the retry accepts. The stored body is what the first response
 * sent, coded as it went out: gzip, say, when compression ran between this middleware and the
 * handler. A retry whose `Accept-Encoding` refuses that coding gets the body decoded, as RFC 9110
 * §12.5.3 asks of a server that has no acceptable coding ("SHOULD respond without any content
 * coding"). A coding Node cannot decode, or a body that does not decode, goes out as stored:
 * what the server would have sent without this step.
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import type { HttpResponse } from './http-response.js';

/** Decoded bodies stop here (a body that inflates past it goes out as stored). */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

type Decode = (bytes: Uint8Array, options: ZlibOptions) => Promise<Buffer>;
const gunzipAsync: Decode = promisify(gunzip);
const inflateAsync: Decode = promisify(inflate);
const inflateRawAsync: Decode = promisify(inflateRaw);
// HTTP's "deflate" is the zlib format; some servers send raw deflate instead.
const inflateEither: Decode = (bytes, options) => inflateAsync(bytes, options).catch(() => inflateRawAsync(bytes, options));

const DECODERS: Readonly<Record<string, Decode>> = {
  gzip: gunzipAsync,
  'x-gzip': gunzipAsync,
  deflate: inflateEither,
  br: promisify(brotliDecompress),
};

/**
 * Whether an `Accept-Encoding` value accepts a content coding: no header accepts any coding; a
 * coding listed with q > 0 is accepted; an unlisted one is accepted when `*` is, with q > 0.
 * @example acceptsCoding('gzip;q=0, br', 'gzip') // false
 */
export function acceptsCoding(acceptEncoding: string | undefined, coding: string): boolean {
  if (acceptEncoding === undefined) return true;
  const wanted = coding.toLowerCase() === 'x-gzip' ? 'gzip' : coding.toLowerCase();
  let star: boolean | undefined;
  for (const entry of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    const listed = name === 'x-gzip' ? 'gzip' : name;
    if (listed === wanted) return accepted;
    if (listed === '*') star = accepted;
  }
  return star ?? false;
}

/**
 * The replay as the retry can read it: unchanged when it has no content coding or the retry
 * accepts every one it has, else with its body decoded and `content-encoding` removed.
 * @example const answer = await decodedForRetry(replayOf(stored), request.header('accept-encoding'));
 */
export async function decodedForRetry(replay: HttpResponse, acceptEncoding: string | undefined): Promise<HttpResponse> {
  const contentEncoding = replay.headers['content-encoding'];
  if (contentEncoding === undefined || replay.body.byteLength === 0) return replay;
  // Codings in the order they were applied; identity is no coding at all.
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.every((coding) => acceptsCoding(acceptEncoding, coding))) return replay;
  let body: Uint8Array = replay.body;
  try {
    for (const coding of [...codings].reverse()) {
      const decode = DECODERS[coding];
      if (!decode) return replay;
      body = await decode(body, { maxOutputLength: MAX_DECODED_BYTES });
    }
  } catch {
    return replay;
  }
  const { 'content-encoding': _removed, ...headers } = replay.headers;
  return { ...replay, headers, body };
}
