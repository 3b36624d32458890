/**
 * The generated Go stores run the runtime's shared conformance scenarios
 * (packages/runtime/conformance/scenarios.json) against the real PostgreSQL, MariaDB, SQLite and
 * Redis on this machine: a generated store that disagrees with the runtime fails here.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';
import { generate, VARIANTS } from './support/go-python-java-golden.js';
import { parseResults, prepareTargets, SCENARIOS_FILE, SERVERS, verdict } from './support/go-python-java-targets.js';
import { runGoConformance, writeGoPackage } from './support/go-toolchain.js';
import { makeWorkspace } from './support/workspace.js';

const run = promisify(execFile);
const go = await serviceAvailable('Go toolchain', () => run('go', ['version']));
const servers: Record<string, boolean> = { sqlite: true };
for (const [store, port] of Object.entries(SERVERS)) servers[store] = await serviceAvailable(`${store} on 127.0.0.1:${port}`, () => probeTcp(port));

const workspace = makeWorkspace('go-conformance');
afterAll(() => workspace.remove());

describe.skipIf(!go)('generated Go stores pass the runtime’s conformance scenarios', () => {
  it.each(VARIANTS.go.filter((variant) => servers[variant.store]))('$store ($fixture)', async (variant) => {
    const files = generate('go', variant);
    const { layout } = JSON.parse(files.find((file) => file.path === 'project.json')!.content) as { layout?: 'plain' | 'partitioned' };
    const dir = writeGoPackage(workspace.dir, `conformance-${variant.store}`, files);
    const targets = await prepareTargets(variant.store, 'go', { layout, dir: workspace.dir });
    try {
      const output = await runGoConformance(workspace.dir, dir, { IDEMPOTENCY_SCENARIOS: SCENARIOS_FILE, ...targets.go });
      expect(verdict(variant.store, parseResults(output)), output.slice(-3000)).toEqual([]);
    } finally {
      await targets.remove();
    }
  }, 120_000);
});
