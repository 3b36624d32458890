/** The suite's HTTP client: undici over loopback, one pool per suite, enough sockets for bursts. */
import { Agent, request } from 'undici';

export interface CallOptions {
  readonly method?: string;
  readonly key?: string | readonly string[];
  readonly user?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bytes: Uint8Array;
  readonly text: string;
  header(name: string): string | undefined;
  json<T = Record<string, unknown>>(): T;
}

export interface SuiteClient {
  call(path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export function createSuiteClient(baseUrl: () => string): SuiteClient {
  const agent = new Agent({ connections: 128, pipelining: 1 });
  return {
    async call(path, { method = 'POST', key, user = 'alice', body, headers = {} } = {}) {
      const sent: Record<string, string | string[]> = { ...headers };
      if (user) sent.authorization = `Bearer ${user}`;
      if (key !== undefined) sent['idempotency-key'] = typeof key === 'string' ? key : [...key];
      const hasBody = method !== 'GET' && method !== 'HEAD';
      if (hasBody) sent['content-type'] = 'application/json';
      const response = await request(`${baseUrl()}${path}`, {
        method: method as 'POST',
        headers: sent,
        body: hasBody ? JSON.stringify(body ?? {}) : undefined,
        dispatcher: agent,
      });
      const bytes = new Uint8Array(await response.body.arrayBuffer());
      const text = Buffer.from(bytes).toString('utf8');
      return {
        status: response.statusCode,
        headers: response.headers,
        bytes,
        text,
        header(name) {
          const value = response.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        json<T>() {
          return JSON.parse(text) as T;
        },
      };
    },
    close: () => agent.close(),
  };
}
