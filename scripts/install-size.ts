/**
 * What a user installs: packs each workspace package as it would be published, installs the
 * tarball alone into an empty project (its dependencies, no optional peers, no dev tools) and
 * prints the size of node_modules. The runtime must stay at or under RUNTIME_LIMIT_BYTES.
 *
 * Usage: npm run size   (needs the build: npm run build)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNTIME_LIMIT_BYTES = 6 * 1024 * 1024;
const root = join(import.meta.dirname, '..');

/** Bytes of every file under `dir` (apparent size, as a registry tarball would unpack). */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', [...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Installs the packed tarballs (the runtime's too, for the builder) into a new project. */
function installAlone(name: string, tarballs: readonly string[]): { bytes: number; packages: string[] } {
  const project = mkdtempSync(join(tmpdir(), 'install-size-'));
  try {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'size-probe', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', ...tarballs], project);
    const modules = join(project, 'node_modules');
    const list = JSON.parse(npm(['ls', '--all', '--json'], project)) as { dependencies?: Record<string, unknown> };
    return { bytes: treeBytes(modules), packages: Object.keys(list.dependencies ?? {}).filter((dep) => dep !== name) };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

const packDir = mkdtempSync(join(tmpdir(), 'install-size-pack-'));
try {
  const pack = (workspace: string) => {
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', packDir, '-w', workspace], root)) as { filename: string }[];
    return join(packDir, packed!.filename);
  };
  const runtimeTarball = pack('packages/runtime');
  const builderTarball = pack('packages/builder');
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

  const runtime = installAlone('@idempotency-builder/runtime', [runtimeTarball]);
  console.log(`@idempotency-builder/runtime installed alone: ${mb(runtime.bytes)} (limit ${mb(RUNTIME_LIMIT_BYTES)})`);
  const builder = installAlone('idempotency-builder', [runtimeTarball, builderTarball]);
  console.log(`idempotency-builder (CLI, with the runtime): ${mb(builder.bytes)}`);
  if (runtime.bytes > RUNTIME_LIMIT_BYTES) {
    console.error(`The runtime's install grew past ${mb(RUNTIME_LIMIT_BYTES)}: check its dependencies.`);
    process.exitCode = 1;
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
