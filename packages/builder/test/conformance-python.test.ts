/**
 * The generated Python stores run the runtime's shared conformance scenarios
 * (packages/runtime/conformance/scenarios.json) against the real PostgreSQL, MariaDB, SQLite and
 * Redis on this machine, with Debian's drivers: a store that disagrees with the runtime fails here.
 */
import { access } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';
import { generate, VARIANTS } from './support/go-python-java-golden.js';
import { parseResults, prepareTargets, SCENARIOS_FILE, SERVERS, verdict } from './support/go-python-java-targets.js';
import { PYTHON, runPythonConformance, writePythonPackage } from './support/python-toolchain.js';
import { makeWorkspace } from './support/workspace.js';

const DRIVERS = { postgresql: 'psycopg2', mysql: 'pymysql', redis: 'redis', sqlite: 'sqlite3' } as const;

const python = await serviceAvailable('Debian Python (/usr/bin/python3)', () => access(PYTHON));
const servers: Record<string, boolean> = { sqlite: true };
for (const [store, port] of Object.entries(SERVERS)) servers[store] = await serviceAvailable(`${store} on 127.0.0.1:${port}`, () => probeTcp(port));

const workspace = makeWorkspace('python-conformance');
afterAll(() => workspace.remove());

describe.skipIf(!python)('generated Python stores pass the runtime’s conformance scenarios', () => {
  it.each(VARIANTS.python.filter((variant) => servers[variant.store]))('$store ($fixture)', async (variant) => {
    const files = generate('python', variant);
    const { layout } = JSON.parse(files.find((file) => file.path === 'project.json')!.content) as { layout?: 'plain' | 'partitioned' };
    const cwd = writePythonPackage(workspace.dir, `conformance-${variant.store}`, files);
    const targets = await prepareTargets(variant.store, 'py', { layout, dir: workspace.dir });
    try {
      const output = await runPythonConformance(cwd, SCENARIOS_FILE, variant.store, targets.python);
      expect(output, `the ${DRIVERS[variant.store]} driver must be installed (scripts/install-system-packages.sh)`).not.toMatch(/ModuleNotFoundError/);
      expect(verdict(variant.store, parseResults(output)), output.slice(-3000)).toEqual([]);
    } finally {
      await targets.remove();
    }
  }, 120_000);
});
