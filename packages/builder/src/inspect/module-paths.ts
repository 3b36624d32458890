/**
 * Where a non-relative import points inside the project: TypeScript's `paths` and `baseUrl`
 * (tsconfig.json or jsconfig.json, along local `extends`) and Node's subpath imports
 * (`"imports": { "#controllers/*": "./src/controllers/*.js" }` in package.json). With these a
 * route file's `import { create } from '@/controllers/orders'` reaches the controller as a
 * relative import does. A specifier no mapping covers is a package: no candidates.
 *
 * A monorepo's own packages are imports too: `import { auth } from '@acme/auth/server'` names
 * the workspace package whose package.json says `"name": "@acme/auth"`, and reaches the file its
 * `exports` map (or `main`, or the subpath itself) gives — what the package manager's symlink in
 * node_modules leads to.
 *
 * Each file takes the configuration of its nearest folder that has one, as the compiler and Node
 * do for a project per folder. A mapped specifier's candidates are only the files the walk found,
 * so a mapping to something outside the repository, or a package name under a `baseUrl`, resolves
 * to nothing rather than to a guess.
 */
import { posix } from 'node:path';
import { parseJsonc } from './language-level.js';
import { tsModuleCandidates } from './route-graph.js';

/** One `paths` entry or subpath import: `prefix*suffix` (or an exact key) → targets, folder-relative. */
interface Mapping {
  readonly prefix: string;
  readonly suffix: string;
  readonly wildcard: boolean;
  /** Repository-relative targets, `*` standing for the matched part. */
  readonly targets: readonly string[];
}

interface FolderConfig {
  readonly mappings: readonly Mapping[];
  /** A tsconfig `baseUrl`: non-relative specifiers are also looked up under it. */
  readonly baseUrl?: string;
}

export interface ModulePaths {
  /**
   * Candidate files for a specifier imported by `fromFile`; undefined for a package.
   * @example modulePaths.candidates('src/routes/orders.ts', '@/controllers/orders') // ['src/controllers/orders.ts']
   */
  candidates(fromFile: string, specifier: string): string[] | undefined;
}

/** A configuration file the walk found. */
export interface ConfigFile {
  readonly relPath: string;
  readonly text: string;
}

const CONFIG_NAMES = new Set(['tsconfig.json', 'jsconfig.json']);
const MAX_EXTENDS = 5;

function mappingOf(key: string, targets: readonly string[], base: string): Mapping | undefined {
  const star = key.indexOf('*');
  if (star !== key.lastIndexOf('*')) return undefined;
  const resolved = targets.map((target) => posix.normalize(posix.join(base, target)));
  if (star < 0) return { prefix: key, suffix: '', wildcard: false, targets: resolved };
  return { prefix: key.slice(0, star), suffix: key.slice(star + 1), wildcard: true, targets: resolved };
}

type CompilerOptions = { baseUrl?: unknown; paths?: unknown };

/** `baseUrl` and `paths` of a tsconfig along its local `extends`, each relative to the file that set it. */
function compilerPaths(relPath: string, read: (relPath: string) => string | undefined, depth = 0): FolderConfig {
  const text = read(relPath);
  const config = text === undefined ? undefined : parseJsonc(text) as { extends?: unknown; compilerOptions?: CompilerOptions } | undefined;
  if (!config) return { mappings: [] };
  const dir = posix.dirname(relPath);
  const parents = (typeof config.extends === 'string' ? [config.extends] : Array.isArray(config.extends) ? config.extends : [])
    .filter((p): p is string => typeof p === 'string' && p.startsWith('.'));
  let inherited: FolderConfig = { mappings: [] };
  if (depth < MAX_EXTENDS) {
    for (const parent of parents) {
      const file = posix.normalize(posix.join(dir, parent.endsWith('.json') ? parent : `${parent}.json`));
      const base = compilerPaths(file, read, depth + 1);
      inherited = { mappings: base.mappings.length > 0 ? base.mappings : inherited.mappings, baseUrl: base.baseUrl ?? inherited.baseUrl };
    }
  }
  const options = config.compilerOptions ?? {};
  const baseUrl = typeof options.baseUrl === 'string' ? posix.normalize(posix.join(dir, options.baseUrl)) : inherited.baseUrl;
  if (!options.paths || typeof options.paths !== 'object') return { mappings: inherited.mappings, baseUrl };
  // `paths` replaces an inherited `paths` whole, and its targets are relative to baseUrl when one is set.
  const pathsBase = baseUrl ?? dir;
  const mappings = Object.entries(options.paths as Record<string, unknown>).flatMap(([key, value]) => {
    const targets = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    const mapping = mappingOf(key, targets, pathsBase);
    return mapping ? [mapping] : [];
  });
  return { mappings, baseUrl };
}

/**
 * Every string target of a package.json `imports`/`exports` entry, conditions (`{ types, import,
 * default }`, nested, arrays of fallbacks) read in `order` first, then in the order written.
 */
function conditionTargets(value: unknown, order: readonly string[]): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((item) => conditionTargets(item, order));
  if (!value || typeof value !== 'object') return [];
  const conditions = value as Record<string, unknown>;
  return [...new Set([...order, ...Object.keys(conditions)].flatMap((name) => (name in conditions ? conditionTargets(conditions[name], order) : [])))];
}

/** Node's conditions for a subpath import, as Node itself prefers them. */
const IMPORT_CONDITIONS = ['import', 'require', 'node', 'default'];
/** For a workspace package's `exports`, `types` first: in a monorepo it often names the `.ts` source. */
const EXPORT_CONDITIONS = ['types', ...IMPORT_CONDITIONS];

/** The first string target of a subpath import (a string, or conditions such as `{ types, import, default }`). */
function importTarget(value: unknown): string | undefined {
  return Array.isArray(value) ? undefined : conditionTargets(value, IMPORT_CONDITIONS)[0];
}

/** A workspace package: its folder and where its specifiers lead (`exports`, else `main`/`types`, else the subpath). */
interface WorkspacePackage {
  readonly dir: string;
  /** `exports` as mappings keyed by the full specifier (`@acme/auth/server`); empty without `exports`. */
  readonly exports: readonly Mapping[];
  /** Where the bare name leads without `exports`: `main`, `types`, `index`. */
  readonly entries: readonly string[];
}

function workspacePackage(relPath: string, text: string): [string, WorkspacePackage] | undefined {
  const manifest = parseJsonc(text) as { name?: unknown; exports?: unknown; main?: unknown; types?: unknown } | undefined;
  if (typeof manifest?.name !== 'string' || manifest.name === '') return undefined;
  const name = manifest.name;
  const dir = posix.dirname(relPath);
  const raw = manifest.exports;
  // `"exports": "./src/index.ts"` or conditions without subpaths both mean the package's root.
  const subpaths = raw && typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).some((key) => key.startsWith('.'))
    ? Object.entries(raw as Record<string, unknown>)
    : raw === undefined ? [] : [['.', raw] as [string, unknown]];
  const exports = subpaths.flatMap(([key, value]) => {
    const targets = conditionTargets(value, EXPORT_CONDITIONS).filter((target) => target.startsWith('./'));
    const mapping = key.startsWith('.') ? mappingOf(posix.join(name, key), targets, dir) : undefined;
    return mapping ? [mapping] : [];
  });
  const entries = [manifest.main, manifest.types].filter((entry): entry is string => typeof entry === 'string').map((entry) => posix.normalize(posix.join(dir, entry)));
  return [name, { dir, exports, entries: [...entries, posix.join(dir, 'index'), posix.join(dir, 'src/index')] }];
}

/** The package a specifier names (`@scope/name/sub` → `@scope/name`), or undefined. */
function packageName(specifier: string): string | undefined {
  const parts = specifier.split('/');
  if (specifier.startsWith('@')) return parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}

function subpathImports(relPath: string, text: string): Mapping[] {
  const manifest = parseJsonc(text) as { imports?: unknown } | undefined;
  if (!manifest?.imports || typeof manifest.imports !== 'object') return [];
  const dir = posix.dirname(relPath);
  return Object.entries(manifest.imports as Record<string, unknown>).flatMap(([key, value]) => {
    const target = importTarget(value);
    const mapping = key.startsWith('#') && target?.startsWith('./') ? mappingOf(key, [target], dir) : undefined;
    return mapping ? [mapping] : [];
  });
}

/** The best match as TypeScript picks it: an exact key first, then the longest prefix. */
function match(mappings: readonly Mapping[], specifier: string): string[] | undefined {
  let best: { mapping: Mapping; middle: string } | undefined;
  for (const mapping of mappings) {
    if (!mapping.wildcard) {
      if (mapping.prefix === specifier) return [...mapping.targets];
      continue;
    }
    const fits = specifier.length >= mapping.prefix.length + mapping.suffix.length
      && specifier.startsWith(mapping.prefix) && specifier.endsWith(mapping.suffix);
    if (fits && (!best || mapping.prefix.length > best.mapping.prefix.length)) {
      best = { mapping, middle: specifier.slice(mapping.prefix.length, specifier.length - mapping.suffix.length) };
    }
  }
  return best?.mapping.targets.map((target) => target.replace('*', best.middle));
}

function nearest<T>(byDir: ReadonlyMap<string, T>, fromFile: string): T | undefined {
  for (let dir = posix.dirname(fromFile); ; dir = posix.dirname(dir)) {
    const found = byDir.get(dir);
    if (found) return found;
    if (dir === '.' || dir === '/' || dir === '') return undefined;
  }
}


/**
 * The project's module mappings, from the tsconfig/jsconfig and package.json files the walk found.
 * @example modulePathsOf([{ relPath: 'tsconfig.json', text: '{"compilerOptions":{"paths":{"@/*":["./src/*"]}}}' }], new Set(['src/controllers/orders.ts']), () => undefined)
 *   .candidates('src/routes/a.ts', '@/controllers/orders') // ['src/controllers/orders.ts']
 */
export function modulePathsOf(configs: readonly ConfigFile[], files: ReadonlySet<string>, read: (relPath: string) => string | undefined): ModulePaths {
  const texts = new Map(configs.map((c) => [c.relPath, c.text]));
  const readAny = (relPath: string) => texts.get(relPath) ?? read(relPath);
  const compiler = new Map<string, FolderConfig>();
  const packages = new Map<string, readonly Mapping[]>();
  const workspace = new Map<string, WorkspacePackage>();
  // Repository-relative module paths → the project's files among their candidates (`.js` written for `.ts`, `index` files).
  const expand = (paths: readonly string[]): string[] | undefined => {
    const found = paths.flatMap((path) => tsModuleCandidates('./_', `./${path}`)).filter((candidate) => files.has(candidate));
    return found.length > 0 ? found : undefined;
  };
  for (const config of configs) {
    const name = posix.basename(config.relPath);
    const dir = posix.dirname(config.relPath);
    // A folder with both files is compiled by its tsconfig.json.
    if (CONFIG_NAMES.has(name) && !(name === 'jsconfig.json' && texts.has(posix.join(dir, 'tsconfig.json')))) {
      compiler.set(dir, compilerPaths(config.relPath, readAny));
    }
    if (name === 'package.json') {
      packages.set(dir, subpathImports(config.relPath, config.text));
      const declared = workspacePackage(config.relPath, config.text);
      // The first in walk order wins, as a package manager refuses two packages of one name.
      if (declared && !workspace.has(declared[0])) workspace.set(...declared);
    }
  }
  /** A workspace package's file for a specifier, as its `exports` (or, without them, its folder) says. */
  const workspaceModule = (specifier: string): string[] | undefined => {
    const name = packageName(specifier);
    const declared = name === undefined ? undefined : workspace.get(name);
    if (!declared || name === undefined) return undefined;
    if (declared.exports.length > 0) {
      const targets = match(declared.exports, specifier);
      return targets && expand(targets);
    }
    const subpath = specifier.slice(name.length + 1);
    return expand(subpath === '' ? declared.entries : [posix.join(declared.dir, subpath), posix.join(declared.dir, 'src', subpath)]);
  };
  return {
    candidates(fromFile, specifier) {
      if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') return tsModuleCandidates(fromFile, specifier);
      if (specifier.startsWith('#')) {
        const targets = match(nearest(packages, fromFile) ?? [], specifier);
        return targets && expand(targets);
      }
      const folder = nearest(compiler, fromFile);
      // As the compiler does: a mapping that reaches no file falls through to baseUrl, then to node_modules
      // (where a workspace package is linked).
      const targets = folder && match(folder.mappings, specifier);
      const mapped = targets && expand(targets);
      if (mapped) return mapped;
      const underBase = folder?.baseUrl !== undefined ? expand([posix.join(folder.baseUrl, specifier)]) : undefined;
      return underBase ?? workspaceModule(specifier);
    },
  };
}

/** Relative specifiers only: what a file is resolved with when the project's configuration is not known. */
export const RELATIVE_ONLY: ModulePaths = {
  candidates: (fromFile, specifier) => (specifier.startsWith('.') ? tsModuleCandidates(fromFile, specifier) : undefined),
};
