/**
 * A TypeScript project outside the repository, as a user has it: its own tsconfig.json and
 * package.json, and a node_modules whose packages are links — the runtime to packages/runtime
 * (its built dist and package.json "exports"/"typesVersions", never its sources), the frameworks,
 * drivers and their @types to this repository's node_modules. Nothing is stubbed: a package the
 * generated code imports that is not here is reported as missing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './workspace.js';

const run = promisify(execFile);

export interface TsMode {
  readonly label: string;
  readonly compilerOptions: Record<string, unknown>;
  /** package.json "type" of the project (absent = CommonJS package). */
  readonly packageType?: 'module';
  /** What the builder must read from that tsconfig + package.json. */
  readonly expect: { readonly module: string; readonly moduleResolution: string; readonly extension: '.js' | ''; readonly format: 'esm' | 'cjs' };
}

/** The stock NestJS (≤ 10) tsconfig: CommonJS, no esModuleInterop, loose null checks. */
const NEST_STOCK = {
  module: 'commonjs', declaration: true, removeComments: true, emitDecoratorMetadata: true, experimentalDecorators: true,
  allowSyntheticDefaultImports: true, target: 'ES2021', sourceMap: true, outDir: './dist', incremental: true, skipLibCheck: true,
  strictNullChecks: false, noImplicitAny: false, strictBindCallApply: false, forceConsistentCasingInFileNames: false, noFallthroughCasesInSwitch: false,
};

/** The module settings a project can compile with; each compiles the generated code once. */
export const TS_MODES: readonly TsMode[] = [
  {
    label: 'commonjs (stock NestJS tsconfig, node10 resolution)',
    compilerOptions: NEST_STOCK,
    expect: { module: 'commonjs', moduleResolution: 'node10', extension: '', format: 'cjs' },
  },
  {
    label: 'node16 (ES module package)',
    compilerOptions: { module: 'node16', target: 'ES2022', strict: true, skipLibCheck: true, experimentalDecorators: true, emitDecoratorMetadata: true },
    packageType: 'module',
    expect: { module: 'node16', moduleResolution: 'node16', extension: '.js', format: 'esm' },
  },
  {
    label: 'nodenext (CommonJS package, NestJS 11 tsconfig)',
    compilerOptions: {
      module: 'nodenext', moduleResolution: 'nodenext', resolvePackageJsonExports: true, esModuleInterop: true, isolatedModules: true, declaration: true,
      emitDecoratorMetadata: true, experimentalDecorators: true, target: 'ES2023', skipLibCheck: true, strictNullChecks: true, noImplicitAny: false,
    },
    expect: { module: 'nodenext', moduleResolution: 'nodenext', extension: '.js', format: 'cjs' },
  },
  {
    label: 'esnext + bundler',
    compilerOptions: { module: 'esnext', moduleResolution: 'bundler', target: 'ES2022', strict: true, skipLibCheck: true, experimentalDecorators: true, emitDecoratorMetadata: true },
    packageType: 'module',
    expect: { module: 'esnext', moduleResolution: 'bundler', extension: '', format: 'esm' },
  },
];

/**
 * A fresh folder under the OS temp dir (not under the repository: nothing resolves by walking up
 * into this repository's node_modules).
 * @example const { dir, remove } = tempProject('ts-commonjs');
 */
export function tempProject(label: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `ib-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** tsconfig.json and package.json of the mode, for the builder to read. */
export function writeProjectFiles(dir: string, mode: TsMode, extra: { include?: string[]; compilerOptions?: Record<string, unknown> } = {}): void {
  mkdirSync(dir, { recursive: true });
  const tsconfig = { compilerOptions: { ...mode.compilerOptions, ...extra.compilerOptions }, ...(extra.include ? { include: extra.include } : {}) };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'service', private: true, ...(mode.packageType ? { type: mode.packageType } : {}) }, null, 2)}\n`);
}

/**
 * The packages (`pg`, `@nestjs/common`) that `sources` import by bare specifier.
 * @example bareImports(["import pg from 'pg';"]) // ['pg']
 */
export function bareImports(sources: readonly string[]): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"./][^'"]*)['"]/gm)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('node:')) continue;
      names.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier));
    }
  }
  return [...names].sort();
}

/**
 * node_modules of links: the runtime to packages/runtime, every other package and its @types to
 * this repository's. Returns the packages that are not installed here.
 * @example const missing = linkNodeModules(dir, ['pg', '@idempotency-builder/runtime']);
 */
export function linkNodeModules(dir: string, packages: readonly string[]): string[] {
  const missing: string[] = [];
  const link = (name: string, target: string) => {
    const path = join(dir, 'node_modules', name);
    if (existsSync(path)) return;
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path, 'dir');
  };
  for (const name of new Set([...packages, '@types/node'])) {
    if (name === '@idempotency-builder/runtime') {
      link(name, join(REPO, 'packages/runtime'));
      continue;
    }
    const installed = join(REPO, 'node_modules', name);
    if (existsSync(installed)) link(name, installed);
    else missing.push(name);
    const types = join(REPO, 'node_modules/@types', name.startsWith('@') ? name.slice(1).replace('/', '__') : name);
    if (!name.startsWith('@types/') && existsSync(types)) link(`@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`, types);
  }
  return missing;
}

/**
 * `tsc --noEmit -p dir` with this repository's TypeScript; its diagnostics ('' when clean).
 * @example expect(await typeCheck(dir)).toBe('');
 */
export async function typeCheck(dir: string): Promise<string> {
  try {
    await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', dir], { cwd: dir, timeout: 240_000 });
    return '';
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message?: string };
    return `${failure.stdout ?? ''}${failure.stderr ?? ''}` || (failure.message ?? 'tsc failed');
  }
}
