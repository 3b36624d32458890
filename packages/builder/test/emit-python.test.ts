/**
 * Generated Python: the output equals the committed golden files, and Debian's Python accepts it —
 * every module compiles (py_compile), pyflakes finds nothing, and the in-memory test suite passes,
 * including the fingerprint equality with the TypeScript runtime.
 */
import { access } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteContract } from '@idempotency-builder/runtime/contract';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { compareGolden, generate, VARIANTS } from './support/go-python-java-golden.js';
import { checkPython, PYFLAKES, PYTHON, writePythonPackage } from './support/python-toolchain.js';
import { makeWorkspace } from './support/workspace.js';

const python = await serviceAvailable('Debian Python (/usr/bin/python3, pyflakes3)', () => Promise.all([access(PYTHON), access(PYFLAKES)]));

const workspace = makeWorkspace('python');
afterAll(() => workspace.remove());

describe('generated Python', () => {
  it.each(VARIANTS.python)('golden: $fixture ($store) equals the committed output', (variant) => {
    expect(compareGolden('python', variant)).toEqual([]);
  });

  it('project.json holds the runtime’s SQLite statements, only the clock swapped for SQLite 3.40', () => {
    const files = generate('python', VARIANTS.python[2]!);
    const data = JSON.parse(files.find((file) => file.path === 'project.json')!.content) as { statements: Record<string, { text: string; params: string[] }> };
    const runtime = sqliteContract('idempotency_store');
    const upsert = data.statements.claimUpsert!;
    expect(upsert.text.replace(/\?/g, '@')).toBe(runtime.statements.claimUpsert.split(runtime.storeNow).join('x').replace(/@\w+/g, '@'));
    expect(upsert.params).toEqual([...runtime.statements.claimUpsert.matchAll(/@(\w+)/g)].map((m) => m[1]));
  });

  describe.skipIf(!python)('toolchain', () => {
    it.each(VARIANTS.python)('$fixture ($store): compiles, pyflakes-clean, its test suite passes', async (variant) => {
      const files = generate('python', variant);
      const cwd = writePythonPackage(workspace.dir, `${variant.fixture}-${variant.store}`, files);
      const { lint, tests } = await checkPython(cwd, files);
      expect(lint).toBe('');
      expect(tests).toMatch(/^8 passed$/m);
    }, 60_000);
  });
});
