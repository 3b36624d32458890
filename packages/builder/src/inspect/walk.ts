/**
 * Lists the files worth inspecting under a directory. Dependency, build, VCS, test, fixture,
 * vendored and generated trees are skipped; files over a size bound (a stray binary, a minified
 * bundle) are not read. There is no cap on the number of files: a cap drops whatever the walk
 * reaches last, and that can be the payment module.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { resolve, sep } from 'node:path';

/** Folders that hold other people's code or build output, never the user's handlers. */
export const SKIPPED_DIRS = new Set([
  'node_modules', 'dist', 'build', 'out', '.next', '.nuxt', '.output', '.git', '.hg', '.svn', 'vendor',
  'target', 'bin', 'obj', 'coverage', '__pycache__', '.venv', 'venv', 'env', '.tox', '.mypy_cache',
  '.pytest_cache', '.gradle', '.idea', '.vscode', '.terraform', '.turbo', '.cache', 'tmp', '.tmp',
  // Tests, fixtures, vendored and generated trees exercise or copy handlers; they do not declare the service's own.
  'test', 'tests', '__tests__', '__mocks__', 'spec', 'e2e', 'fixtures', '__fixtures__', 'testdata', 'third_party',
  'third-party', 'generated', '__generated__', 'bower_components', 'jspm_packages', 'storybook-static', '.storybook',
  '.svelte-kit', '.expo', 'Pods', 'DerivedData', 'integration-tests', 'integration_tests', '__snapshots__', 'cypress',
  'playwright-report', 'test-results', 'web_modules', 'site-packages', '.yarn', '.pnpm-store', '.nx', '.angular',
  '.parcel-cache', '.docusaurus', '.vitepress', '.vercel', '.netlify', '.serverless', '.aws-sam', 'cdk.out', '.dart_tool',
]);

/** Generated or minified files, whatever folder they sit in. */
const GENERATED_FILE = /\.(min|bundle|gen|generated|pb)\.[^.]+$|_pb2(_grpc)?\.py$|\.pb\.go$|\.d\.ts$|_generated\.go$/;

/** Extensions of files the scanners read; manifests are matched by name in `manifests.ts`. */
export const SOURCE_EXTENSIONS = new Set([
  '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.py', '.go', '.java', '.kt', '.cs', '.rb', '.php',
  '.json', '.toml', '.txt', '.xml', '.gradle', '.kts', '.csproj', '.mod', '.yaml', '.yml', '.properties', '.prisma',
  // SQL migrations: unique constraints and processed-events tables (existing deduplication).
  '.sql',
]);

/** Manifests whose name has no extension. */
const MANIFEST_NAMES = new Set(['Gemfile']);

export interface WalkLimits {
  /**
   * Stop after this many files (default: no limit). The pre-filter keeps large repositories fast;
   * a cap would silently drop whatever comes last in the walk. For tests and callers with a budget.
   */
  readonly maxFiles?: number;
  /** Files larger than this are not read (default 512 KiB): generated or minified code. */
  readonly maxFileBytes?: number;
  /**
   * Absolute folders left out — the builder's own output (`--code DIR`), so a second run does not
   * mistake the generated cleanup job or middleware for the user's code.
   */
  readonly excludeDirs?: readonly string[];
}

export interface WalkedFile {
  readonly absPath: string;
  /** Path relative to the root, always with `/`, as it appears in `path:line` locations. */
  readonly relPath: string;
  readonly size: number;
}

export interface WalkResult {
  readonly files: WalkedFile[];
  /** True when `maxFiles` was reached or some files were over `maxFileBytes`. */
  readonly truncated: boolean;
  readonly skippedLarge: number;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** The order `localeCompare` gives, without building a collator per comparison. */
const byName = new Intl.Collator().compare;

function readDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    // Unreadable folders (permissions, broken links) are simply not inspected.
    return [];
  }
}

/**
 * Breadth-first listing of candidate files, sorted per folder for a stable report.
 * @example
 * const { files } = walkSourceFiles('/srv/payments-api');
 * files.map((f) => f.relPath); // ['package.json', 'src/app.ts', ...]
 */
export function walkSourceFiles(root: string, { maxFiles = Number.POSITIVE_INFINITY, maxFileBytes = 512 * 1024, excludeDirs = [] }: WalkLimits = {}): WalkResult {
  const excluded = new Set(excludeDirs.map((dir) => resolve(dir)));
  const files: WalkedFile[] = [];
  // Folders as absolute and root-relative paths, built by appending one name: no path.join or
  // path.relative per file, which cost more than the rest of the walk on a large tree.
  const queue: Array<{ abs: string; rel: string }> = [{ abs: resolve(root), rel: '' }];
  let truncated = false;
  let skippedLarge = 0;
  // An index into the queue, not shift(): shifting a queue of thousands of folders is quadratic.
  for (let next = 0; next < queue.length; next += 1) {
    const dir = queue[next] as { abs: string; rel: string };
    const entries = readDir(dir.abs).sort((a, b) => byName(a.name, b.name));
    for (const entry of entries) {
      const absPath = dir.abs.endsWith(sep) ? `${dir.abs}${entry.name}` : `${dir.abs}${sep}${entry.name}`;
      const relPath = dir.rel ? `${dir.rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !excluded.has(absPath)) queue.push({ abs: absPath, rel: relPath });
        continue;
      }
      if (!entry.isFile() || !(SOURCE_EXTENSIONS.has(extensionOf(entry.name)) || MANIFEST_NAMES.has(entry.name))) continue;
      if (GENERATED_FILE.test(entry.name)) continue;
      if (files.length >= maxFiles) {
        return { files, truncated: true, skippedLarge };
      }
      const size = statSync(absPath).size;
      if (size > maxFileBytes) {
        skippedLarge += 1;
        truncated = true;
        continue;
      }
      files.push({ absPath, relPath, size });
    }
  }
  return { files, truncated, skippedLarge };
}
