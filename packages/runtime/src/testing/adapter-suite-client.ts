/**
 * The adapter suite's HTTP client: node:http over loopback (no dependency), one keep-alive agent
 * per suite with enough sockets for bursts. Sends JSON by default, or any raw body and type.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface CallOptions {
  readonly method?: string;
  readonly key?: string | readonly string[];
  readonly user?: string;
  /** Sent as JSON (`application/json`) unless `rawBody` is given. */
  readonly body?: unknown;
  /** Sent as it is, with `contentType` (none when null). */
  readonly rawBody?: string | Uint8Array;
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Appended to the path as it is, e.g. `?amount=1`. */
  readonly query?: string;
}

export interface CallResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: Uint8Array;
  readonly text: string;
  header(name: string): string | undefined;
  json<T = Record<string, unknown>>(): T;
}

export interface SuiteClient {
  call(path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * @example
 * const client = createSuiteClient(() => server.url);
 * const result = await client.call('/payments', { key: 'k-1', body: { amount: 1 } });
 */
export function createSuiteClient(baseUrl: () => string): SuiteClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  return {
    call(path, { method = 'POST', key, user = 'alice', body, rawBody, contentType, headers = {}, query = '' } = {}) {
      const sent: Record<string, string | string[]> = { ...headers };
      if (user) sent.authorization = `Bearer ${user}`;
      if (key !== undefined) sent['idempotency-key'] = typeof key === 'string' ? key : [...key];
      const hasBody = method !== 'GET' && method !== 'HEAD';
      let payload: Uint8Array | undefined;
      if (hasBody) {
        payload = rawBody === undefined ? Buffer.from(JSON.stringify(body ?? {})) : typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
        const type = rawBody === undefined ? 'application/json' : contentType;
        if (type !== null && type !== undefined) sent['content-type'] = type;
        sent['content-length'] = String(payload.byteLength);
      }
      return new Promise<CallResult>((resolve, reject) => {
        const req = httpRequest(`${baseUrl()}${path}${query}`, { method, headers: sent, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const bytes = new Uint8Array(Buffer.concat(chunks));
            const text = Buffer.from(bytes).toString('utf8');
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              bytes,
              text,
              header(name) {
                const value = res.headers[name];
                return Array.isArray(value) ? value.join(', ') : value;
              },
              json<T>() {
                return JSON.parse(text) as T;
              },
            });
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: async () => agent.destroy(),
  };
}
