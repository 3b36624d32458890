/**
 * Runs the Go toolchain on generated Go: GOPATH mode (GO111MODULE=off), because Go modules cannot
 * be downloaded here; Debian's golang-github-* packages in /usr/share/gocode provide the drivers
 * the conformance test imports (lib/pq, go-sql-driver/mysql, mattn/go-sqlite3, redigo).
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Artifact } from '../../src/design/model.js';
import { writeArtifacts } from './workspace.js';

const run = promisify(execFile);

/** Where Debian installs Go library sources. */
export const DEBIAN_GOPATH = '/usr/share/gocode';

/**
 * The environment for go commands in a workspace's GOPATH.
 * @example await run('go', ['vet', '.'], { cwd: dir, env: goEnv(root) });
 */
export function goEnv(root: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GO111MODULE: 'off', GOPATH: `${join(root, 'gopath')}:${DEBIAN_GOPATH}`, GOFLAGS: '', GOTOOLCHAIN: 'local', GOPROXY: 'off', ...extra };
}

/**
 * Writes the package into root's GOPATH as example.test/<name>/idempotency and returns its folder.
 * @example const dir = writeGoPackage(workspace.dir, 'gin-postgresql', files);
 */
export function writeGoPackage(root: string, name: string, files: readonly Artifact[]): string {
  const dir = join(root, 'gopath', 'src', 'example.test', name, 'idempotency');
  mkdirSync(dir, { recursive: true });
  writeArtifacts(dir, files);
  return dir;
}

/**
 * gofmt -l (files not in canonical form, with -e every syntax error), go vet, and go test.
 * @example const { unformatted, tests } = await checkGo(root, dir, files);
 */
export async function checkGo(root: string, dir: string, files: readonly Artifact[]): Promise<{ unformatted: string; tests: string }> {
  const sources = files.filter((file) => file.path.endsWith('.go')).map((file) => join(dir, file.path));
  const { stdout: unformatted } = await run('gofmt', ['-l', '-e', ...sources]);
  const env = goEnv(root);
  await run('go', ['vet', '.'], { cwd: dir, env, timeout: 120_000 });
  const { stdout: tests } = await run('go', ['test', '-count=1', '.'], { cwd: dir, env, timeout: 120_000 });
  return { unformatted, tests };
}

/**
 * Runs the package's conformance test (TestConformanceScenarios) with the given store target
 * variables; returns what it printed, whether it passed or not.
 * @example const output = await runGoConformance(root, dir, { IDEMPOTENCY_PG_DSN: '…' });
 */
export async function runGoConformance(root: string, dir: string, vars: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run('go', ['test', '-count=1', '-v', '-run', 'TestConformanceScenarios', '.'], { cwd: dir, env: goEnv(root, vars), timeout: 120_000 });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return `${failure.stdout ?? ''}${failure.stderr ?? ''}`;
  }
}
