/**
 * Generated Python, checked by the real interpreter: every module parses (ast), and the generated
 * pytest suite passes against the generated engine — including the fingerprint equality with the
 * TypeScript runtime.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema, type AnswersInput } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import type { Artifact } from '../src/design/model.js';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { FIXTURES, GENERATED_AT } from './fixtures.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const tool = (name: string, args: string[]) => serviceAvailable(`${name} toolchain`, () => run(name, args));

const python = await tool('python3', ['--version']);
/** The interpreter itself, not a version-manager shim that costs half a second per call. */
const PYTHON = python ? (await run('python3', ['-c', 'import sys; print(sys.executable)'])).stdout.trim() : 'python3';

function artifacts(base: keyof typeof FIXTURES, stack: AnswersInput['stack'], extra: Partial<AnswersInput> = {}): readonly Artifact[] {
  const answers = answersSchema.parse({ ...FIXTURES[base], ...extra, stack });
  return buildDesign(answers, { generatedAt: GENERATED_AT }).artifacts;
}

const workspace = makeWorkspace('languages');
afterAll(() => workspace.remove());

describe.skipIf(!python)('generated Python', () => {
  const variants: [string, readonly Artifact[]][] = [
    ['fastapi-postgresql', artifacts('fastapi-postgres-paypal', { language: 'python', framework: 'fastapi', database: 'postgresql' })],
    ['flask-redis', artifacts('express-postgres-stripe', { language: 'python', framework: 'flask', database: 'redis' })],
    ['django-mysql', artifacts('nestjs-mysql-adyen', { language: 'python', framework: 'django', database: 'mariadb' })],
    ['flask-sqlite', artifacts('spring-postgres', { language: 'python', framework: 'flask', database: 'sqlite' })],
  ];

  it.each(variants)('%s: every module parses with the real Python parser', async (name, files) => {
    const dir = join(workspace.dir, 'py', name, 'idempotency');
    writeArtifacts(dir, files.filter((a) => a.language === 'python'));
    const paths = files.filter((a) => a.language === 'python').map((file) => join(dir, file.path));
    const { stdout } = await run(PYTHON, ['-c', 'import ast, sys\nfor f in sys.argv[1:]: ast.parse(open(f).read(), f)\nprint(len(sys.argv) - 1)', ...paths]);
    expect(Number(stdout.trim())).toBe(paths.length);
    expect(files.filter((a) => a.language === 'python').length).toBeGreaterThanOrEqual(7);
  });

  it.each(variants.slice(0, 2))('%s: its pytest suite passes against the generated engine', async (name) => {
    const root = join(workspace.dir, 'py', name);
    const env = { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' };
    const { stdout } = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'idempotency'], { cwd: root, env, timeout: 90_000 });
    expect(stdout).toMatch(/8 passed/);
  });
});

