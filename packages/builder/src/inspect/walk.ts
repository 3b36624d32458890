/**
 * Lists the files worth inspecting under a directory, bounded in count and size so that a huge
 * monorepo or a stray binary never stalls the CLI. Dependency, build and VCS folders are skipped.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Folders that hold other people's code or build output, never the user's handlers. */
export const SKIPPED_DIRS = new Set([
  'node_modules', 'dist', 'build', 'out', '.next', '.nuxt', '.output', '.git', '.hg', '.svn', 'vendor',
  'target', 'bin', 'obj', 'coverage', '__pycache__', '.venv', 'venv', 'env', '.tox', '.mypy_cache',
  '.pytest_cache', '.gradle', '.idea', '.vscode', '.terraform', '.turbo', '.cache', 'tmp', '.tmp',
  // Tests, fixtures, vendored and generated trees exercise or copy handlers; they do not declare the service's own.
  'test', 'tests', '__tests__', '__mocks__', 'spec', 'e2e', 'fixtures', '__fixtures__', 'testdata', 'third_party',
  'third-party', 'generated', '__generated__', 'bower_components', 'jspm_packages', 'storybook-static', '.storybook',
  '.svelte-kit', '.expo', 'Pods', 'DerivedData',
]);

/** Generated or minified files, whatever folder they sit in. */
const GENERATED_FILE = /\.(min|bundle|gen|generated|pb)\.[^.]+$|_pb2(_grpc)?\.py$|\.pb\.go$|\.d\.ts$|_generated\.go$/;

/** Extensions of files the scanners read; manifests are matched by name in `manifests.ts`. */
export const SOURCE_EXTENSIONS = new Set([
  '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.py', '.go', '.java', '.kt', '.cs', '.rb', '.php',
  '.json', '.toml', '.txt', '.xml', '.gradle', '.kts', '.csproj', '.mod', '.yaml', '.yml', '.properties', '.prisma',
]);

/** Manifests whose name has no extension. */
const MANIFEST_NAMES = new Set(['Gemfile']);

export interface WalkLimits {
  /**
   * Stop after this many files (default 200,000: a safety bound, not a budget — the pre-filter keeps
   * large repositories fast, and a lower cap would silently skip whole modules).
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
export function walkSourceFiles(root: string, { maxFiles = 200_000, maxFileBytes = 512 * 1024, excludeDirs = [] }: WalkLimits = {}): WalkResult {
  const excluded = new Set(excludeDirs.map((dir) => resolve(dir)));
  const files: WalkedFile[] = [];
  const queue = [root];
  let truncated = false;
  let skippedLarge = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    const entries = readDir(dir).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const absPath = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !excluded.has(absPath)) queue.push(absPath);
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
      files.push({ absPath, relPath: relative(root, absPath).split(sep).join('/'), size });
    }
  }
  return { files, truncated, skippedLarge };
}
