import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * In tests, `@idempotency-builder/runtime[/sub]` resolves to the runtime's sources, derived from
 * its package.json "exports" (the one list of subpaths), so the builder's tests always see the
 * runtime as it is now. Examples and generated projects still resolve the built package.
 */
function runtimeSourceAliases(): { find: RegExp; replacement: string }[] {
  const manifest = JSON.parse(readFileSync(new URL('./packages/runtime/package.json', import.meta.url), 'utf8')) as {
    name: string;
    exports: Record<string, { import?: { default?: string } } | string>;
  };
  const aliases: { find: RegExp; replacement: string }[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file = typeof target === 'string' ? undefined : target.import?.default;
    if (!file?.startsWith('./dist/')) continue;
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    const source = new URL(`./packages/runtime/src/${file.slice('./dist/'.length).replace(/\.js$/, '.ts')}`, import.meta.url).pathname;
    aliases.push({ find: new RegExp(`^${specifier.replace(/[/.]/g, '\\$&')}$`), replacement: source });
  }
  return aliases;
}

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  resolve: { alias: runtimeSourceAliases() },
  test: {
    // Two cores: files run in parallel workers, each on its own schema/prefix/database file.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'runtime', root: 'packages/runtime', include: ['test/**/*.test.ts'], ...shared },
      },
      {
        extends: true,
        test: {
          name: 'builder',
          root: 'packages/builder',
          include: ['test/**/*.test.ts'],
          // Fixture codebases contain their own (never-run) test files.
          exclude: ['test/fixtures/**', 'node_modules/**'],
          ...shared,
        },
      },
      {
        extends: true,
        // Repository-wide checks: the README's and docs' code blocks, as a reader pastes them.
        test: { name: 'docs', root: '.', include: ['test/**/*.test.ts'], ...shared },
      },
    ],
  },
});
