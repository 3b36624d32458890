/**
 * Generated Go, checked by the real toolchain: gofmt-clean, go vet, and the generated go test
 * suite (including the fingerprint equality with the TypeScript runtime). Standard library only.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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

const go = await tool('go', ['version']);

function artifacts(base: keyof typeof FIXTURES, stack: AnswersInput['stack'], extra: Partial<AnswersInput> = {}): readonly Artifact[] {
  const answers = answersSchema.parse({ ...FIXTURES[base], ...extra, stack });
  return buildDesign(answers, { generatedAt: GENERATED_AT }).artifacts;
}

const workspace = makeWorkspace('languages');
afterAll(() => workspace.remove());

describe.skipIf(!go)('generated Go', () => {
  const variants: [string, readonly Artifact[]][] = [
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

