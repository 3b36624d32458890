/**
 * Standalone code in Python, Go and Java, checked by each language's real toolchain: parsed (ast,
 * gofmt, javac), compiled or run where the toolchain exists (go vet + go test; javac + the JUnit
 * suite; pytest), and proven to compute the same fingerprints as the TypeScript runtime.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema, type AnswersInput } from '../../src/builder/answers.js';
import { buildDesign } from '../../src/builder/design/build-design.js';
import type { Artifact } from '../../src/builder/design/model.js';
import { serviceAvailable } from '../support/services.js';
import { FIXTURES, GENERATED_AT } from './fixtures.js';
import { compileAndTestJava } from './support/java-toolchain.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const tool = (name: string, args: string[]) => serviceAvailable(`${name} toolchain`, () => run(name, args));

const python = await tool('python3', ['--version']);
const go = await tool('go', ['version']);
const javac = await tool('javac', ['-version']);

function artifacts(base: keyof typeof FIXTURES, stack: AnswersInput['stack'], extra: Partial<AnswersInput> = {}): Artifact[] {
  const answers = answersSchema.parse({ ...FIXTURES[base], ...extra, stack });
  return buildDesign(answers, { generatedAt: GENERATED_AT }).artifacts;
}

const workspace = makeWorkspace('languages');
afterAll(() => workspace.remove());

describe.skipIf(!python)('generated Python', () => {
  const variants: [string, Artifact[]][] = [
    ['fastapi-postgresql', artifacts('fastapi-postgres-paypal', { language: 'python', framework: 'fastapi', database: 'postgresql' })],
    ['flask-redis', artifacts('express-postgres-stripe', { language: 'python', framework: 'flask', database: 'redis' })],
    ['django-mysql', artifacts('nestjs-mysql-adyen', { language: 'python', framework: 'django', database: 'mariadb' })],
    ['flask-sqlite', artifacts('spring-postgres', { language: 'python', framework: 'flask', database: 'sqlite' })],
  ];

  it.each(variants)('%s: every module parses with the real Python parser', async (name, files) => {
    const dir = join(workspace.dir, 'py', name, 'idempotency');
    writeArtifacts(dir, files.filter((a) => a.language === 'python'));
    for (const file of files.filter((a) => a.language === 'python')) {
      await run('python3', ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])', join(dir, file.path)]);
    }
    expect(files.filter((a) => a.language === 'python').length).toBeGreaterThanOrEqual(7);
  });

  it.each(variants.slice(0, 2))('%s: its pytest suite passes against the generated engine', async (name) => {
    const root = join(workspace.dir, 'py', name);
    const { stdout } = await run('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'idempotency'], { cwd: root, timeout: 90_000 });
    expect(stdout).toMatch(/8 passed/);
  });
});

describe.skipIf(!go)('generated Go', () => {
  const variants: [string, Artifact[]][] = [
    ['net-http-redis', artifacts('go-redis', { language: 'go', framework: 'net-http', database: 'redis' })],
    ['gin-postgresql', artifacts('express-postgres-stripe', { language: 'go', framework: 'gin', database: 'postgresql' })],
    ['net-http-mysql', artifacts('nestjs-mysql-adyen', { language: 'go', framework: 'net-http', database: 'mariadb' })],
  ];

  it.each(variants)('%s: gofmt-clean, vets, and its go test suite passes', async (name, files) => {
    const dir = join(workspace.dir, 'go', name);
    const code = files.filter((a) => a.language === 'go');
    writeArtifacts(join(dir, 'idempotency'), code);
    writeFileSync(join(dir, 'go.mod'), 'module example.test/app\n\ngo 1.19\n');
    // -e reports every syntax error; -l lists files whose formatting is not canonical (none).
    const { stdout: unformatted } = await run('gofmt', ['-l', '-e', ...code.map((a) => join(dir, 'idempotency', a.path))]);
    expect(unformatted).toBe('');
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' };
    await run('go', ['vet', './...'], { cwd: dir, env, timeout: 120_000 });
    const { stdout } = await run('go', ['test', '-count=1', './...'], { cwd: dir, env, timeout: 120_000 });
    expect(stdout).toMatch(/^ok\s+example\.test\/app\/idempotency/m);
    if (name.startsWith('gin')) expect(code.map((a) => a.path)).toContain('gin.go');
  }, 150_000);
});

describe.skipIf(!javac)('generated Java', () => {
  const variants: [string, Artifact[]][] = [
    ['spring-postgresql', artifacts('spring-postgres', { language: 'java', framework: 'spring', database: 'postgresql' })],
    ['spring-redis', artifacts('express-postgres-stripe', { language: 'java', framework: 'spring', database: 'redis' })],
  ];

  it.each(variants)('%s: compiles with javac and its JUnit suite passes', async (name, files) => {
    const dir = join(workspace.dir, 'java', name);
    writeArtifacts(dir, files.filter((a) => a.language === 'java'));
    const result = await compileAndTestJava(dir, 'com.example.idempotency.IdempotencyEngineTest');
    expect(result.output).toBe('');
    expect(result.compiled).toBe(true);
    expect(result.testOutput).toMatch(/8 passed, 0 failed/);
    expect(result.testsPassed).toBe(true);
  }, 120_000);
});
