/**
 * Generated Java: the output equals the committed golden files, and the real JDK 17 accepts it —
 * javac compiles it (Spring/Jackson/JUnit types stubbed, see support/java-toolchain.ts) and the
 * generated JUnit suite runs green, fingerprint equality with the TypeScript runtime included.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { projectDataJava } from '../src/emit/java/index.js';
import { compareGolden, generate, VARIANTS } from './support/go-python-java-golden.js';
import { compileAndTestJava } from './support/java-toolchain.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const javac = await serviceAvailable('JDK (javac, java)', () => Promise.all([run('javac', ['-version']), run('java', ['-version'])]));

const workspace = makeWorkspace('java');
afterAll(() => workspace.remove());

describe('generated Java', () => {
  it.each(VARIANTS.java)('golden: $fixture ($store) equals the committed output', (variant) => {
    expect(compareGolden('java', variant)).toEqual([]);
  });

  it('ProjectData keeps project.json byte for byte through the text block escapes', () => {
    const json = `${JSON.stringify({ sql: 'a\\b "q" \n' }, null, 2)}\n"""tail"""\n`;
    const block = /JSON = """\n([\s\S]*)""";/.exec(projectDataJava(json))?.[1] ?? '';
    // Java reads the text block's \\ and \" escapes back as the original characters.
    expect(block.replace(/\\(\\|")/g, '$1')).toBe(json);
    expect(block).not.toMatch(/(?<!\\)"""/);
  });

  describe.skipIf(!javac)('toolchain', () => {
    it.each(VARIANTS.java)('$fixture ($store): compiles with javac and its JUnit suite passes', async (variant) => {
      const dir = join(workspace.dir, `${variant.fixture}-${variant.store}`);
      writeArtifacts(dir, generate('java', variant));
      const result = await compileAndTestJava(dir, 'com.example.idempotency.IdempotencyEngineTest');
      expect(result.output).toBe('');
      expect(result.compiled).toBe(true);
      expect(result.testOutput).toMatch(/8 passed, 0 failed/);
      expect(result.testsPassed).toBe(true);
    }, 120_000);
  });
});
