/**
 * A framework we do not ship, adapted with nothing but `@idempotency-builder/runtime/http`: Node's
 * bare `node:http` server. This file is the proof of "about 50 lines" (docs/http.md copies it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  asRequestBodyError,
  captureNodeResponse,
  createHttpIdempotency,
  nodeRequestView,
  PASSTHROUGH_METHODS,
  REPLAYED_HEADER,
  requestBodyProblem,
  resolveMaxRequestBytes,
  writeNodeResponse,
  type HttpIdempotencyOptions,
  type NodeResponseCapture,
  type RequestBodyOptions,
} from '../../../src/adapters/http/index.js'; // = '@idempotency-builder/runtime/http'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Wraps a `node:http` request listener so that it runs at most once per key and scope. */
export function withNodeIdempotency(handler: NodeHandler, options: HttpIdempotencyOptions<IncomingMessage> & RequestBodyOptions): NodeHandler {
  const http = createHttpIdempotency(options);
  const maxRequestBytes = resolveMaxRequestBytes(options.maxRequestBytes);
  const fail = (res: ServerResponse) => {
    if (!res.headersSent) res.writeHead(500).end();
  };
  return async (req, res) => {
    delete req.headers[REPLAYED_HEADER]; // a client can never fake a replay
    if (PASSTHROUGH_METHODS.has(req.method ?? 'GET')) return handler(req, res);
    let capture: NodeResponseCapture | undefined;
    const execute = () => {
      capture = captureNodeResponse(res, http.options.maxBodyBytes); // hold writes until stored
      Promise.resolve(handler(req, res)).catch(() => {
        if (!res.writableEnded) res.writeHead(500).end(); // a 5xx: released, never stored
      });
      return capture.response;
    };
    try {
      const outcome = await http.handle(req, nodeRequestView(req, { maxRequestBytes }), execute);
      if (outcome.kind === 'pass') return handler(req, res);
      if (outcome.kind === 'respond') return writeNodeResponse(res, outcome.response);
      capture?.flush(); // stored: now let the handler's response out
    } catch (error) {
      const bodyError = asRequestBodyError(error);
      if (capture) capture.flush();
      else if (bodyError) writeNodeResponse(res, requestBodyProblem(bodyError, http.options));
      else fail(res);
    }
  };
}
