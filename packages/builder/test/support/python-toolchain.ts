/**
 * Runs Debian's Python on generated Python: /usr/bin/python3 has the drivers (psycopg2, pymysql,
 * redis) from Debian packages, since PyPI is unreachable here; pyflakes3 is the linter.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Artifact } from '../../src/design/model.js';
import { writeArtifacts } from './workspace.js';

const run = promisify(execFile);

export const PYTHON = '/usr/bin/python3';
export const PYFLAKES = '/usr/bin/pyflakes3';

/**
 * Writes the package as <root>/<name>/idempotency and returns the folder to run `-m` from.
 * @example const cwd = writePythonPackage(workspace.dir, 'flask-redis', files);
 */
export function writePythonPackage(root: string, name: string, files: readonly Artifact[]): string {
  const cwd = join(root, 'py', name);
  writeArtifacts(join(cwd, 'idempotency'), files);
  return cwd;
}

/**
 * py_compile every module, pyflakes them, and run the in-memory test suite.
 * @example const { lint, tests } = await checkPython(cwd, files);
 */
export async function checkPython(cwd: string, files: readonly Artifact[]): Promise<{ lint: string; tests: string }> {
  const modules = files.filter((file) => file.path.endsWith('.py')).map((file) => join(cwd, 'idempotency', file.path));
  await run(PYTHON, ['-m', 'py_compile', ...modules]);
  const lint = await run(PYFLAKES, modules).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  const { stdout: tests } = await run(PYTHON, ['-m', 'idempotency.test_idempotency'], { cwd, timeout: 60_000 });
  return { lint, tests };
}

/**
 * Runs the package's conformance runner; returns what it printed, whether it passed or not.
 * @example const output = await runPythonConformance(cwd, scenarios, 'postgresql', target);
 */
export async function runPythonConformance(cwd: string, scenarios: string, store: string, target: string): Promise<string> {
  try {
    const { stdout } = await run(PYTHON, ['-m', 'idempotency.conformance', scenarios, store, target], { cwd, timeout: 120_000 });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return `${failure.stdout ?? ''}${failure.stderr ?? ''}`;
  }
}
