/**
 * The Node response capture (Express, NestJS) on a bare node:http server: the client sees nothing
 * until flush() (so a response is stored before it is sent), every way of writing is captured,
 * and streams or oversized bodies switch to pass-through instead of being held.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { captureNodeResponse, type NodeResponseCapture } from '../../src/adapters/http/node-response-capture.js';
import type { HttpResponse } from '../../src/adapters/http/http-response.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

/** Serves one request with `write`, captured; returns what was captured and the client's view. */
async function serve(maxBodyBytes: number, write: (res: ServerResponse) => void | Promise<void>) {
  let capture!: NodeResponseCapture;
  let captured!: Promise<HttpResponse>;
  const server = createServer((_req, res) => {
    capture = captureNodeResponse(res, maxBodyBytes);
    captured = capture.response;
    void write(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const { port } = server.address() as AddressInfo;
  let received = false;
  const response = fetch(`http://127.0.0.1:${port}/`).then(async (r) => {
    received = true;
    return { status: r.status, headers: r.headers, text: await r.text() };
  });
  while (!captured) await new Promise((resolve) => setTimeout(resolve, 2));
  return { capture, captured: await captured, response, received: () => received };
}

describe('captureNodeResponse', () => {
  it('holds writeHead/write/end until flush, then sends exactly what was written', async () => {
    const { capture, captured, response, received } = await serve(1024, (res) => {
      res.writeHead(201, { 'content-type': 'text/plain', 'x-a': '1' });
      res.write('ab');
      res.end(Buffer.from('c'));
    });
    expect(captured).toEqual({ status: 201, headers: { 'content-type': 'text/plain', 'x-a': '1' }, body: new Uint8Array(Buffer.from('abc')) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received()).toBe(false); // nothing reached the client yet
    capture.flush();
    const sent = await response;
    expect([sent.status, sent.text, sent.headers.get('x-a'), sent.headers.get('content-length')]).toEqual([201, 'abc', '1', '3']);
  });

  it('accepts the raw array form of writeHead and strips a replay marker the handler set', async () => {
    const { capture, captured, response } = await serve(1024, (res) => {
      res.writeHead(200, 'Fine', ['content-type', 'application/json', 'idempotent-replayed', 'true']);
      res.end('{}');
    });
    expect(captured.headers['content-type']).toBe('application/json');
    capture.flush();
    const sent = await response;
    expect(sent.text).toBe('{}');
    expect(sent.headers.get('idempotent-replayed')).toBeNull();
  });

  it('switches to pass-through past maxBodyBytes and records the body as omitted', async () => {
    const { captured, response, received } = await serve(8, async (res) => {
      res.setHeader('content-type', 'text/plain');
      res.write('12345');
      res.write('67890'); // crosses the cap: held bytes go out, the rest streams
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.end('!');
    });
    expect(captured.bodyOmitted).toBe(true);
    expect(captured.body.byteLength).toBe(0);
    expect((await response).text).toBe('1234567890!');
    expect(received()).toBe(true); // sent without any flush()
  });

  it('passes an event stream and flushHeaders() through at once', async () => {
    const events = await serve(1024, (res) => {
      res.setHeader('content-type', 'text/event-stream');
      res.write('data: 1\n\n');
      res.end();
    });
    expect(events.captured.bodyOmitted).toBe(true);
    expect((await events.response).text).toBe('data: 1\n\n');
    await close?.();

    const flushed = await serve(1024, (res) => {
      res.flushHeaders();
      res.end('late');
    });
    expect(flushed.captured.bodyOmitted).toBe(true);
    expect((await flushed.response).text).toBe('late');
  });
});
