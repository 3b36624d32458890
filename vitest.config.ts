import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Fixture codebases for the builder contain their own (never-run) test files.
    exclude: ['test/fixtures/**', 'node_modules/**', 'examples/**/generated/**', '.tmp/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel workers, each on its own schema/prefix/database file.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
