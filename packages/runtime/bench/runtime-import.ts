/**
 * Loads a subpath of the built runtime for a bench: the package's own dist by default, or a
 * private build when IDEMPOTENCY_BENCH_RUNTIME_DIST names one — so a change in src can be
 * measured (`npx tsup --out-dir /tmp/x/dist --no-dts --format esm`) without rebuilding the dist
 * that others use. That directory's parent needs a node_modules (a symlink to the workspace's)
 * so the build's optional peers (better-sqlite3, pg) resolve.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const privateDist = process.env.IDEMPOTENCY_BENCH_RUNTIME_DIST;

type Manifest = { exports: Record<string, { import?: { default?: string } } | string> };
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

/** Where the runtime comes from, for a bench's header line. */
export const runtimeSource = privateDist ? `private build ${resolve(privateDist)}` : 'the package dist';

/**
 * @example const { createSqliteStore } = await importRuntime<typeof import('@idempotency-builder/runtime/sqlite')>('sqlite');
 */
export async function importRuntime<T>(subpath: '' | string): Promise<T> {
  const specifier = subpath === '' ? '.' : `./${subpath}`;
  if (!privateDist) return (await import(subpath === '' ? '@idempotency-builder/runtime' : `@idempotency-builder/runtime/${subpath}`)) as T;
  const target = manifest.exports[specifier];
  const file = typeof target === 'string' ? undefined : target?.import?.default;
  if (!file?.startsWith('./dist/')) throw new Error(`No ESM export for "${specifier}" in package.json`);
  return (await import(pathToFileURL(join(resolve(privateDist), file.slice('./dist/'.length))).href)) as T;
}
