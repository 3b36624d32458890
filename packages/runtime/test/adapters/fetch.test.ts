/**
 * The shared adapter suite against the fetch adapter: plain `(Request) => Promise<Response>`
 * handlers, served over real HTTP by @hono/node-server's Request/Response bridge (no router).
 */
import { runAdapterSuite } from '../../src/testing/adapter-suite.js';
import { serveOnFetch } from './suite/servers.js';

runAdapterSuite({ name: 'fetch', createServer: serveOnFetch });
