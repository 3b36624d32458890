/**
 * Compiles generated TypeScript with the real tsc, with `idempotency-builder` mapped onto this
 * repository's src/. Runtime subpaths that do not exist yet (and drivers that are not installed
 * here) are replaced by declaration stubs — and reported, so the test can say which.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './workspace.js';

const run = promisify(execFile);

/** Runtime subpath → source entry in this repository, and the factory a stub must declare. */
const RUNTIME: Record<string, { entry: string; stub: string }> = {
  '@idempotency-builder/runtime/memory': { entry: 'src/stores/memory/index.ts', stub: '' },
  '@idempotency-builder/runtime/sqlite': { entry: 'src/stores/sqlite/index.ts', stub: 'export declare function createSqliteStore(options: { filename: string }): IdempotencyStore;' },
  '@idempotency-builder/runtime/postgres': { entry: 'src/stores/postgres/index.ts', stub: 'export declare function createPostgresStore(options: { db: { query(text: string, values?: unknown[]): Promise<unknown> } }): IdempotencyStore;' },
  '@idempotency-builder/runtime/mysql': { entry: 'src/stores/mysql/index.ts', stub: 'export declare function createMysqlStore(options: { db: unknown }): IdempotencyStore;' },
  '@idempotency-builder/runtime/redis': { entry: 'src/stores/redis/index.ts', stub: 'export declare function createRedisStore(options: { client: unknown; prefix?: string }): IdempotencyStore;' },
  '@idempotency-builder/runtime/dynamodb': { entry: 'src/stores/dynamodb/index.ts', stub: 'export declare function createDynamoDbStore(options: { client: unknown; table: string }): IdempotencyStore;' },
  '@idempotency-builder/runtime/mongodb': { entry: 'src/stores/mongodb/index.ts', stub: 'export declare function createMongoStore(options: { collection: unknown }): IdempotencyStore;' },
  // Framework adapters: no stubs — the generated glue must type-check against the real ones.
  '@idempotency-builder/runtime/express': { entry: 'src/adapters/express/index.ts', stub: '' },
  '@idempotency-builder/runtime/fastify': { entry: 'src/adapters/fastify/index.ts', stub: '' },
  '@idempotency-builder/runtime/hono': { entry: 'src/adapters/hono/index.ts', stub: '' },
  '@idempotency-builder/runtime/nestjs': { entry: 'src/adapters/nestjs/index.ts', stub: '' },
  '@idempotency-builder/runtime/fetch': { entry: 'src/adapters/fetch/index.ts', stub: '' },
};

/** Drivers not installed in this repository: stubbed with the few members the generated code uses. */
const DRIVER_STUBS: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'export declare class DynamoDBClient { constructor(config: object); }',
  mongodb: 'export declare class MongoClient { constructor(url: string); db(): { collection(name: string): unknown }; }',
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
  const paths: Record<string, string[]> = { '@idempotency-builder/runtime': [join(REPO, 'packages/runtime/src/index.ts')] };
  const stubbed: string[] = [];
  const stubDir = join(dir, '__stubs__');
  mkdirSync(stubDir, { recursive: true });
  for (const [module, { entry, stub }] of Object.entries(RUNTIME)) {
    const real = join(REPO, 'packages/runtime', entry);
    if (existsSync(real) || stub === '') {
      paths[module] = [real];
      continue;
    }
    const file = join(stubDir, `${module.replace(/[/@]/g, '_')}.d.ts`);
    writeFileSync(file, `import type { IdempotencyStore } from '@idempotency-builder/runtime';\n${stub}\n`);
    paths[module] = [file];
    stubbed.push(module);
  }
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
