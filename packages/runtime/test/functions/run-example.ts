/**
 * Runs an examples/ script with tsx the way a user would, except that
 * `@idempotency-builder/runtime[/sub]` resolves to the runtime's sources (tsconfig paths in a
 * temporary tsconfig), so the examples are proven before the package is built or exported.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');
const src = join(root, 'packages/runtime/src');
const SUBPATHS: Record<string, string> = {
  '': 'index.ts',
  '/memory': 'stores/memory/index.ts',
  '/redis': 'stores/redis/index.ts',
  '/functions': 'functions/index.ts',
  '/webhooks': 'webhooks/index.ts',
  '/schedules': 'schedules/index.ts',
};

let tsconfig: string | undefined;
function tsconfigWithSourcePaths(): string {
  if (tsconfig) return tsconfig;
  const paths = Object.fromEntries(Object.entries(SUBPATHS).map(([sub, file]) => [`@idempotency-builder/runtime${sub}`, [join(src, file)]]));
  tsconfig = join(mkdtempSync(join(tmpdir(), 'idem-examples-')), 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({ extends: join(root, 'tsconfig.base.json'), compilerOptions: { baseUrl: root, paths } }));
  return tsconfig;
}

/** Runs `examples/<file>`; resolves with its exit code and output (bounded by `timeoutMs`). */
export function runExample(file: string, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  const tsx = join(root, 'node_modules/.bin/tsx');
  return new Promise((resolvePromise) => {
    execFile(tsx, ['--tsconfig', tsconfigWithSourcePaths(), join(root, 'examples', file)], { cwd: root, timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolvePromise({ code, output: `${stdout}${stderr}` });
    });
  });
}
