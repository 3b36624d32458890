/**
 * The shared adapter suite on Hono 4 (the only major the peer range names), served through
 * @hono/node-server.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAdapterSuite } from '../../../src/testing/adapter-suite.js';
import { serveOnHono } from '../suite/servers.js';

describe('hono: the loaded package', () => {
  it('is Hono 4', () => {
    // hono's "exports" hides package.json: read it beside the resolved entry's package root.
    const entry = fileURLToPath(import.meta.resolve('hono'));
    const root = entry.slice(0, entry.lastIndexOf('/node_modules/hono/') + '/node_modules/hono/'.length);
    const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
    expect(Number.parseInt(version, 10)).toBe(4);
  });
});

runAdapterSuite({ name: 'hono 4', createServer: serveOnHono });
