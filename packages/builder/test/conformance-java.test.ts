/**
 * The generated Java stores run the runtime's shared conformance scenarios
 * (packages/runtime/conformance/scenarios.json) against the real PostgreSQL, MariaDB, SQLite and
 * Redis on this machine — JDBC drivers from Debian, Redis through the generated JDK-only RESP
 * client: a store that disagrees with the runtime fails here.
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';
import { generate, VARIANTS } from './support/go-python-java-golden.js';
import { parseResults, prepareTargets, SCENARIOS_FILE, SERVERS, verdict } from './support/go-python-java-targets.js';
import { compileAndTestJava, JDBC_DRIVERS, runJavaConformance } from './support/java-toolchain.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const java = await serviceAvailable('JDK (javac, java)', () => Promise.all([run('javac', ['-version']), run('java', ['-version'])]));
const servers: Record<string, boolean> = {};
for (const [store, port] of Object.entries(SERVERS)) servers[store] = await serviceAvailable(`${store} on 127.0.0.1:${port}`, () => probeTcp(port));
for (const [store, jar] of Object.entries(JDBC_DRIVERS)) {
  const driver = await serviceAvailable(`JDBC driver ${jar}`, () => access(jar));
  servers[store] = (servers[store] ?? true) && driver;
}

const workspace = makeWorkspace('java-conformance');
afterAll(() => workspace.remove());

describe.skipIf(!java)('generated Java stores pass the runtime’s conformance scenarios', () => {
  it.each(VARIANTS.java.filter((variant) => servers[variant.store]))('$store ($fixture)', async (variant) => {
    const files = generate('java', variant);
    const { layout } = JSON.parse(files.find((file) => file.path === 'ProjectData.java')!.content.replace(/^[\s\S]*?"""\n|"""[\s\S]*$/g, '').replace(/\\(\\|")/g, '$1')) as { layout?: 'plain' | 'partitioned' };
    const dir = join(workspace.dir, `conformance-${variant.store}`);
    writeArtifacts(dir, files);
    const compiled = await compileAndTestJava(dir, 'com.example.idempotency.IdempotencyEngineTest');
    expect(compiled.output).toBe('');
    const targets = await prepareTargets(variant.store, 'java', { layout, dir: workspace.dir });
    try {
      const output = await runJavaConformance(dir, SCENARIOS_FILE, variant.store, targets.java);
      expect(verdict(variant.store, parseResults(output)), output.slice(-3000)).toEqual([]);
    } finally {
      await targets.remove();
    }
  }, 120_000);
});
