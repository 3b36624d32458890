/**
 * Every TypeScript block in the README and docs compiles as pasted into a new project (strict,
 * NodeNext, against the built packages), and the runnable ones run.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, documentationFiles, extractSnippets, type Snippet } from './snippets.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
// Inside the repository, so the packages resolve through node_modules as in a user's project.
const dir = join(root, '.tmp', 'doc-snippets');

const all: Snippet[] = [];
const skipped: { origin: string; reason: string }[] = [];
for (const file of documentationFiles(root)) {
  const found = extractSnippets(root, file);
  all.push(...found.snippets);
  skipped.push(...found.skipped);
}
const fileOf = (index: number) => `snippet-${String(index).padStart(3, '0')}.ts`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('documentation code blocks', () => {
  it('links only to files that exist (README, package READMEs and docs alike)', () => {
    expect(documentationFiles(root).flatMap((file) => brokenLinks(root, file))).toEqual([]);
  });

  it('finds the blocks, and every skipped one says why', () => {
    expect(all.length).toBeGreaterThan(10);
    for (const skip of skipped) expect(skip.reason.length, skip.origin).toBeGreaterThan(10);
  });

  it('type-checks every block as its own module (strict, NodeNext)', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    all.forEach((snippet, index) => {
      // A block with no import/export would share one global scope with the others.
      const code = /^\s*(import|export)\s/m.test(snippet.code) ? snippet.code : `${snippet.code}\nexport {};\n`;
      writeFileSync(join(dir, fileOf(index)), `// ${snippet.origin}\n${code}\n`);
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true,
          types: ['node'], lib: ['ES2023', 'DOM'], experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true,
        },
        include: ['*.ts'],
      }),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    // Point each error at the Markdown line it came from.
    const located = result.replace(/snippet-(\d{3})\.ts\((\d+),(\d+)\)/g, (_m, n: string, line: string) => {
      const snippet = all[Number(n)]!;
      const [file, fence] = snippet.origin.split(':');
      return `${file}:${Number(fence) + Number(line) - 1}`;
    });
    expect(located).toBe('');
  }, 180_000);

  const runnable = all.map((snippet, index) => ({ snippet, index })).filter(({ snippet }) => snippet.run);
  it.each(runnable)('runs $snippet.origin', async ({ index }) => {
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const { stderr } = await run(tsx, [join(dir, fileOf(index))], { cwd: dir, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(stderr).not.toMatch(/Error/);
  }, 90_000);
});
