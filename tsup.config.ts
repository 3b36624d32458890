import { defineConfig } from 'tsup';

/** One entry per public subpath; keep in step with package.json "exports". */
export const entries = {
  'index': 'src/index.ts',
  'stores/memory/index': 'src/stores/memory/index.ts',
  'stores/sqlite/index': 'src/stores/sqlite/index.ts',
  'stores/postgres/index': 'src/stores/postgres/index.ts',
  'stores/redis/index': 'src/stores/redis/index.ts',
  'testing/index': 'src/testing/index.ts',
  'metrics/prometheus/index': 'src/metrics/prometheus/index.ts',
  'metrics/opentelemetry/index': 'src/metrics/opentelemetry/index.ts',
  'adapters/express/index': 'src/adapters/express/index.ts',
  'adapters/fastify/index': 'src/adapters/fastify/index.ts',
  'adapters/hono/index': 'src/adapters/hono/index.ts',
  'adapters/fetch/index': 'src/adapters/fetch/index.ts',
  'adapters/nestjs/index': 'src/adapters/nestjs/index.ts',
  'cli/main': 'src/cli/main.ts',
};

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  // canonicalize is ESM-only; bundling it keeps the CJS build loadable everywhere.
  noExternal: ['canonicalize'],
});
