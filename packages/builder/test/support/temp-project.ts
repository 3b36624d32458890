/**
 * Throwaway projects on disk for inspector tests: each call writes the files given (over the
 * defaults) into a fresh temporary folder; the folders are removed after the test file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of temporary projects named after the test (`ib-<label>-…`).
 * @example const project = tempProjects('module-paths', { 'package.json': '{ "name": "x" }' }); const dir = project({ 'src/app.ts': '…' });
 */
export function tempProjects(label: string, defaults: Readonly<Record<string, string>> = {}): (files: Readonly<Record<string, string>>) => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return (files) => {
    const dir = mkdtempSync(join(tmpdir(), `ib-${label}-`));
    dirs.push(dir);
    for (const [path, text] of Object.entries({ ...defaults, ...files })) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
}
