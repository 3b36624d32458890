/** The shared adapter suite against Fastify 5, in-process over real HTTP. */
import { runAdapterSuite } from '../../src/testing/adapter-suite.js';
import { serveOnFastify } from './suite/servers.js';

runAdapterSuite({
  name: 'fastify 5',
  createServer: serveOnFastify,
  // The plugin takes no maxRequestBytes: Fastify reads the body itself, within its own `bodyLimit`.
  skip: { maxRequestBytes: 'Fastify enforces its own bodyLimit (413) before the plugin runs' },
});
