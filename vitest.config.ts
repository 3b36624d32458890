import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel workers, each on its own schema/prefix/database file.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
