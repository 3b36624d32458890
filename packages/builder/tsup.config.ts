import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * `typescript` is one 9 MB CommonJS file. Imported as ESM, Node scans all of it twice before running
 * it (module-format detection, then cjs-module-lexer for named exports): about half a second of CPU
 * on every `inspect`. The scanners only use its default export, so the bundle loads it with require().
 */
const requireTypeScript: Plugin = {
  name: 'require-typescript',
  setup(build) {
    build.onResolve({ filter: /^typescript$/ }, () => ({ path: 'typescript', namespace: 'require-typescript' }));
    build.onLoad({ filter: /.*/, namespace: 'require-typescript' }, () => ({
      contents: "import { createRequire } from 'node:module'; export default createRequire(import.meta.url)('typescript');",
      loader: 'js',
    }));
  },
};

export default defineConfig({
  entry: { 'cli/main': 'src/cli/main.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The runtime, TypeScript and the CLI libraries are dependencies: never bundled. TypeScript is let
  // through tsup's externals only so the plugin can turn its import into a require() — still not bundled.
  noExternal: ['typescript'],
  esbuildPlugins: [requireTypeScript],
});
