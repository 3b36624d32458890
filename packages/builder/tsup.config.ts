import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { 'cli/main': 'src/cli/main.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The runtime, TypeScript and the CLI libraries are dependencies: never bundled.
});
