/**
 * Sends an answer the interceptor made (a replay, a problem) through Nest's own response path, in
 * a form every supported Nest major sends unchanged on Express and on Fastify.
 */
import { StreamableFile } from '@nestjs/common';
import type { HttpResponse } from '../http/http-response.js';
import { NULL_BODY_STATUSES } from '../http/http-response.js';

/** What is used of the platform response: Express's `res` or Fastify's `reply`. */
export interface PlatformResponseLike {
  status?(code: number): unknown;
  code?(code: number): unknown;
  setHeader?(name: string, value: string): unknown;
  header?(name: string, value: string): unknown;
}

/**
 * Puts `response`'s status and headers on the platform response and returns the value the
 * interceptor emits for its body. Nest 10 and 11 serialize any object they are handed (a web
 * `Response` became `201 {}`), and they keep the status set on the response only when the emitted
 * value is nil or a `StreamableFile`; both are understood by Nest 12 too, so one path serves all.
 * @example subscriber.next(platformAnswer(host.getResponse(), outcome.response));
 */
export function platformAnswer(platform: PlatformResponseLike, response: HttpResponse): StreamableFile | undefined {
  if (typeof platform.status === 'function') platform.status(response.status);
  else platform.code?.(response.status);
  for (const [name, value] of Object.entries(response.headers)) {
    // Express's `res.set`/`res.header` would append a charset to content-type: the raw Node setter keeps the stored bytes.
    if (typeof platform.setHeader === 'function') platform.setHeader(name, value);
    else platform.header?.(name, value);
  }
  if (response.body.byteLength === 0 || NULL_BODY_STATUSES.has(response.status)) return undefined;
  return new StreamableFile(Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength));
}
