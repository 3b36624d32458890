/**
 * Generated Go: the output equals the committed golden files, the per-project data carries the
 * runtime's own statements and scripts, and the real toolchain accepts it (gofmt-clean, go vet,
 * and its go test suite, including the fingerprint equality with the TypeScript runtime).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresContract, REDIS_SCRIPTS } from '@idempotency-builder/runtime/contract';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { compareGolden, generate, VARIANTS } from './support/go-python-java-golden.js';
import { checkGo, writeGoPackage } from './support/go-toolchain.js';
import { makeWorkspace } from './support/workspace.js';

const run = promisify(execFile);
const go = await serviceAvailable('Go toolchain (go, gofmt)', () => Promise.all([run('go', ['version']), run('sh', ['-c', 'command -v gofmt'])]));

const workspace = makeWorkspace('go');
afterAll(() => workspace.remove());

const project = (files: ReturnType<typeof generate>) => JSON.parse(files.find((file) => file.path === 'project.json')?.content ?? '{}') as {
  statements: Record<string, { text: string; params: string[] }>;
  scripts: Record<string, string>;
  layout?: 'plain' | 'partitioned';
};

describe('generated Go', () => {
  it.each(VARIANTS.go)('golden: $fixture ($store) equals the committed output', (variant) => {
    expect(compareGolden('go', variant)).toEqual([]);
  });

  it('project.json holds the runtime’s PostgreSQL statements, unqualified, with their parameter names', () => {
    const data = project(generate('go', VARIANTS.go[0]!));
    const runtime = postgresContract({ table: 'idempotency_store', layout: data.layout ?? 'plain' });
    expect(data.statements.claim?.text).toBe(runtime.statements.claim.split('"public".').join(''));
    // Every lease and expiry comparison on the database clock, read when the statement runs.
    expect(data.statements.finish?.text).toContain('clock_timestamp()');
    expect(Object.values(data.statements).some((statement) => /\bnow\(\)/.test(statement.text))).toBe(false);
    expect(data.statements.claim?.params).toEqual(runtime.params.claim);
  });

  it('project.json holds the runtime’s Lua scripts byte for byte', () => {
    const data = project(generate('go', VARIANTS.go[3]!));
    expect(data.scripts.claim).toBe(REDIS_SCRIPTS.claim.source);
    expect(data.scripts.complete).toBe(REDIS_SCRIPTS.complete.source);
    expect(Object.keys(data.statements)).toEqual([]);
  });

  it('only project.json and go.mod differ between two projects on the same store', () => {
    const [a, b] = [generate('go', VARIANTS.go[1]!), generate('go', { ...VARIANTS.go[1]!, fixture: 'spring-postgres' })];
    const differing = a.filter((file) => b.find((other) => other.path === file.path)?.content !== file.content).map((file) => file.path);
    expect(differing.filter((path) => path !== 'provider_keys.go')).toEqual(['project.json', 'go.mod']);
  });

  describe.skipIf(!go)('toolchain', () => {
    it.each(VARIANTS.go)('$fixture ($store): gofmt-clean, vets, and its go test suite passes', async (variant) => {
      const files = generate('go', variant);
      const dir = writeGoPackage(workspace.dir, `${variant.fixture}-${variant.store}`, files);
      const { unformatted, tests } = await checkGo(workspace.dir, dir, files);
      expect(unformatted).toBe('');
      expect(tests).toMatch(/^ok\s+example\.test\/.*\/idempotency/m);
      if (variant.stack.framework === 'gin') expect(files.map((file) => file.path)).toContain('gin.go');
    }, 150_000);
  });
});
