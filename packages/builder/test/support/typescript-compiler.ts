/**
 * Compiles generated TypeScript with the real tsc, with every runtime subpath mapped onto the
 * runtime's sources (derived from its package.json "exports"). Drivers that are not installed here
 * are replaced by declaration stubs — and reported, so the test can say which. Runtime subpaths are
 * never stubbed: generated code may import only what the runtime exports.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './workspace.js';

const run = promisify(execFile);

interface RuntimeManifest {
  readonly name: string;
  readonly exports: Record<string, { import?: { default?: string } } | string>;
}

/**
 * Runtime specifier → its source entry, derived from the runtime's package.json "exports" (the
 * one list of subpaths): `./dist/stores/postgres/index.js` is `src/stores/postgres/index.ts`.
 * @example runtimeSourceEntries()['@idempotency-builder/runtime/postgres'] // '<repo>/packages/runtime/src/stores/postgres/index.ts'
 */
export function runtimeSourceEntries(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(REPO, 'packages/runtime/package.json'), 'utf8')) as RuntimeManifest;
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file = typeof target === 'string' ? undefined : target.import?.default;
    if (!file?.startsWith('./dist/')) continue;
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    entries[specifier] = join(REPO, 'packages/runtime/src', file.slice('./dist/'.length).replace(/\.js$/, '.ts'));
  }
  return entries;
}

/** Drivers not installed in this repository: stubbed with the few members the generated code uses. */
const DRIVER_STUBS: Record<string, string> = {
  '@jest/globals': "export { describe, expect, it } from 'vitest';",
};

export interface CompileResult {
  readonly ok: boolean;
  readonly output: string;
  /** Modules that were stubbed because they do not exist here. */
  readonly stubbed: readonly string[];
}

/**
 * Type-checks every .ts file under `dir` (strict, NodeNext, decorators on).
 * @example const { ok, output } = await compileTypeScript(workspace.dir);
 */
export async function compileTypeScript(dir: string): Promise<CompileResult> {
  const paths: Record<string, string[]> = {};
  const stubbed: string[] = [];
  const stubDir = join(dir, '__stubs__');
  mkdirSync(stubDir, { recursive: true });
  const entries = runtimeSourceEntries();
  for (const [module, entry] of Object.entries(entries)) paths[module] = [entry];
  for (const [module, stub] of Object.entries(DRIVER_STUBS)) {
    if (existsSync(join(REPO, 'node_modules', module, 'package.json'))) continue;
    const file = join(stubDir, `${module.replace(/[/@]/g, '_')}.d.ts`);
    writeFileSync(file, `${stub}\n`);
    paths[module] = [file];
    stubbed.push(module);
  }
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023', 'DOM'],
      types: ['node'],
      strict: true,
      noUncheckedIndexedAccess: true,
      esModuleInterop: true,
      skipLibCheck: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      noEmit: true,
      // The runtime's contract subpath bundles its conformance scenarios (JSON).
      resolveJsonModule: true,
      ignoreDeprecations: '6.0',
      paths,
    },
    include: ['**/*.ts'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'generated-check', private: true, type: 'module' }));
  try {
    const { stdout } = await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir });
    return { ok: true, output: stdout, stubbed };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}`, stubbed };
  }
}
