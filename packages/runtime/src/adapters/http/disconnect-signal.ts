/**
 * A client that goes away before its response is finished, as an AbortSignal made only when the
 * handler first reads its signal: most handlers never do, and an AbortController plus a listener
 * per request was a measurable share of a protected request.
 */

/** What is used of a Node response (or Fastify's `reply.raw`). */
export interface ClosableResponse {
  once?(event: 'close', listener: () => void): unknown;
  readonly writableFinished?: boolean;
  readonly destroyed?: boolean;
  readonly socket?: { readonly destroyed?: boolean } | null;
}

/**
 * @example http.handle(req, view, execute, { signal: lazyDisconnectSignal(res, 'The client closed the connection.') });
 */
export function lazyDisconnectSignal(res: ClosableResponse | undefined, message: string): (() => AbortSignal) | undefined {
  if (typeof res?.once !== 'function') return undefined;
  let signal: AbortSignal | undefined;
  return () => {
    if (signal) return signal;
    const controller = new AbortController();
    signal = controller.signal;
    const gone = () => {
      if (res.writableFinished !== true) controller.abort(new Error(message));
    };
    // Read late: the connection may already be gone, and its 'close' already emitted.
    if (res.destroyed === true || res.socket?.destroyed === true) gone();
    else res.once!('close', gone);
    return signal;
  };
}
