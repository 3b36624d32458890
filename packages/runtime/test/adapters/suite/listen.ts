/** Starting a Node HTTP server on a free loopback port and closing it with its open sockets. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { SuiteServer } from '../../../src/testing/adapter-suite.js';
import { sleep, type SuiteResponse } from '../../../src/testing/adapter-suite-routes.js';

export async function listenOnLoopback(server: Server): Promise<SuiteServer> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return fromListening(server);
}

export function fromListening(server: Server): SuiteServer {
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A suite response's chunks as an async generator, a few ms apart (a real stream). */
export async function* chunksOf(response: SuiteResponse): AsyncGenerator<Buffer> {
  for (const chunk of response.chunks ?? []) {
    await sleep(5);
    yield Buffer.from(chunk);
  }
}

export const nodeStreamOf = (response: SuiteResponse) => Readable.from(chunksOf(response));

/** The same chunks as a web ReadableStream. */
export function webStreamOf(response: SuiteResponse): ReadableStream<Uint8Array> {
  const iterator = chunksOf(response);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value));
    },
  });
}
