/**
 * A small TCP proxy on a free loopback port, between a store client and its server: `cut()`
 * destroys every open connection at once (a network partition of a moment, a NAT timeout, a
 * failover), while new connections keep working.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Destroys every connection open through the proxy; returns how many pairs were cut. */
  cut(): number;
  close(): Promise<void>;
}

/**
 * @example const proxy = await startTcpProxy(5432); const pool = new pg.Pool({ port: proxy.port }); proxy.cut();
 */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ port: targetPort, host: targetHost });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The proxy has no TCP address.');
  return {
    port: address.port,
    cut() {
      const count = pairs.size;
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      return count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
