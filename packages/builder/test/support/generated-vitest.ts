/**
 * Runs a test file written into a generated workspace with this repository's vitest, every runtime
 * subpath aliased onto the runtime's sources — so generated code is exercised on the runtime as it
 * is in this tree, not on a stale build.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runtimeSourceEntries } from './typescript-compiler.js';
import { REPO } from './workspace.js';

const run = promisify(execFile);

/**
 * Writes `dir/vitest.config.mjs` (runtime aliases, only `include`) and runs it; resolves to vitest's
 * stdout, rejects when a test fails or after 120 s.
 * @example expect(await runGeneratedVitest(workspace.dir, 'graphql-usage.test.ts')).toMatch(/Tests\s+1 passed/);
 */
export async function runGeneratedVitest(dir: string, include: string, env: Record<string, string> = {}): Promise<string> {
  // Exact-match patterns: a bare specifier must not also capture its own subpaths.
  const alias = Object.entries(runtimeSourceEntries()).map(([find, replacement]) => ({ find: `^${find}$`, replacement }));
  const config = join(dir, 'vitest.config.mjs');
  writeFileSync(
    config,
    `export default { resolve: { alias: ${JSON.stringify(alias)}.map((a) => ({ find: new RegExp(a.find), replacement: a.replacement })) }, test: { include: [${JSON.stringify(include)}], reporters: ['default'] } };\n`,
  );
  const { stdout } = await run(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', config], {
    cwd: dir,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
    timeout: 120_000,
  });
  return stdout;
}
