/** The shared adapter suite against Hono 4 on @hono/node-server, in-process over real HTTP. */
import { runAdapterSuite } from '../../src/testing/adapter-suite.js';
import { serveOnHono } from './suite/servers.js';

runAdapterSuite({ name: 'hono 4', createServer: serveOnHono });
