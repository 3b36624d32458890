/**
 * Reading a streamed response body up to `maxBodyBytes`: either the whole body (kept for replay)
 * or the part read so far plus the unread rest, which the adapter passes through unchanged.
 */

export type CollectedBody =
  | { readonly kind: 'complete'; readonly body: Uint8Array }
  | { readonly kind: 'overflow'; readonly head: readonly Uint8Array[]; readonly rest: AsyncIterator<Uint8Array> };

const utf8 = new TextEncoder();

/**
 * One chunk as bytes; Node streams may yield strings.
 * @example toBytes('hi') // Uint8Array [104, 105]
 */
export function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return utf8.encode(chunk);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw new TypeError(`A response body chunk must be bytes or a string; got ${typeof chunk}.`);
}

/**
 * Concatenates chunks into one buffer.
 * @example concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]) // Uint8Array [1, 2, 3]
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads `source` until it ends or more than `maxBytes` arrived.
 * @example
 * const collected = await collectBody(readable[Symbol.asyncIterator](), 1024 * 1024);
 * if (collected.kind === 'complete') store(collected.body);
 */
export async function collectBody(source: AsyncIterator<unknown>, maxBytes: number): Promise<CollectedBody> {
  const head: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await source.next();
    if (next.done) return { kind: 'complete', body: concatBytes(head) };
    const chunk = toBytes(next.value);
    head.push(chunk);
    size += chunk.byteLength;
    if (size > maxBytes) {
      const rest: AsyncIterator<Uint8Array> = {
        next: async () => {
          const item = await source.next();
          return item.done ? { done: true, value: undefined } : { done: false, value: toBytes(item.value) };
        },
        return: async () => {
          await source.return?.();
          return { done: true, value: undefined };
        },
      };
      return { kind: 'overflow', head, rest };
    }
  }
}

/**
 * A web ReadableStream as an async iterator (Node 20's types do not declare one).
 * @example const collected = await collectBody(streamIterator(response.body), maxBodyBytes);
 */
export function streamIterator(stream: ReadableStream<Uint8Array>): AsyncIterator<Uint8Array> {
  const reader = stream.getReader();
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    },
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}

/**
 * A web ReadableStream that yields `head` and then whatever `rest` still has.
 * @example new Response(replayThenRest(collected.head, collected.rest), init)
 */
export function replayThenRest(head: readonly Uint8Array[], rest: AsyncIterator<Uint8Array>): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index < head.length) {
        controller.enqueue(head[index++]!);
        return;
      }
      const next = await rest.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await rest.return?.();
    },
  });
}
