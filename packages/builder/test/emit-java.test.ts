/**
 * Generated Java, checked by the real JDK 17: javac compiles it (Spring/Jackson/JUnit types stubbed,
 * see support/java-toolchain.ts) and the generated JUnit suite runs green, fingerprint equality with
 * the TypeScript runtime included.
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
import { compileAndTestJava } from './support/java-toolchain.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const tool = (name: string, args: string[]) => serviceAvailable(`${name} toolchain`, () => run(name, args));

const javac = await tool('javac', ['-version']);

function artifacts(base: keyof typeof FIXTURES, stack: AnswersInput['stack'], extra: Partial<AnswersInput> = {}): readonly Artifact[] {
  const answers = answersSchema.parse({ ...FIXTURES[base], ...extra, stack });
  return buildDesign(answers, { generatedAt: GENERATED_AT }).artifacts;
}

const workspace = makeWorkspace('languages');
afterAll(() => workspace.remove());

describe.skipIf(!javac)('generated Java', () => {
  const variants: [string, readonly Artifact[]][] = [
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
