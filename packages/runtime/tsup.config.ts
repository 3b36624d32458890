import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

interface ExportTarget {
  readonly import?: { readonly default?: string };
}

/**
 * Build entries derived from package.json "exports" (the one list of public subpaths):
 * `./dist/stores/postgres/index.js` is built from `src/stores/postgres/index.ts`.
 */
export function entriesFromExports(manifest: { exports: Record<string, ExportTarget | string> }): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const target of Object.values(manifest.exports)) {
    const file = typeof target === 'string' ? undefined : target.import?.default;
    if (!file?.startsWith('./dist/')) continue;
    const name = file.slice('./dist/'.length).replace(/\.js$/, '');
    entries[name] = `src/${name}.ts`;
  }
  return entries;
}

const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export default defineConfig({
  entry: entriesFromExports(manifest),
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  // canonicalize is ESM-only; bundling it keeps the CJS build loadable everywhere.
  noExternal: ['canonicalize'],
});
