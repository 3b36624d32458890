/**
 * Reads the language level a service builds at from its own build files — tsconfig (following a
 * local `extends`) and package.json "type", pom.xml / build.gradle, go.mod, pyproject / setup.cfg —
 * each setting with the `path:line` it came from, so that the generated code compiles there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { LanguageLevel } from '../answers.js';
import { formatLocation, lineOf } from './location.js';
import type { Language } from './types.js';

type Level = { -readonly [K in keyof LanguageLevel]: LanguageLevel[K] };

/** What TypeScript's own bases set, for a package `extends` that is not installed to be read. */
const KNOWN_BASES: Record<string, { module: string; target: string; moduleResolution?: string }> = {
  '@tsconfig/node16': { module: 'node16', target: 'es2021' },
  '@tsconfig/node18': { module: 'node16', target: 'es2022' },
  '@tsconfig/node20': { module: 'nodenext', target: 'es2022' },
  '@tsconfig/node22': { module: 'nodenext', target: 'es2022' },
  '@tsconfig/node24': { module: 'nodenext', target: 'es2024' },
  '@tsconfig/recommended': { module: 'commonjs', target: 'es2016' },
  '@tsconfig/vite-react': { module: 'esnext', target: 'es2020', moduleResolution: 'bundler' },
};

/**
 * JSON with comments and trailing commas (tsconfig's dialect) → a value; undefined when broken.
 * @example parseJsonc('{ "a": 1, // note\n }') // { a: 1 }
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
      out += text.slice(start, i + 1);
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      out += text.slice(i, end < 0 ? text.length : end + 2).replace(/[^\n]/g, ' ');
      i = end < 0 ? text.length : end + 1;
    } else out += char;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `dir`, then each parent up to `root`: the nearest build file wins, as the language's own tools do. */
function nearest(root: string, dir: string, names: readonly string[]): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    for (const name of names) if (existsSync(join(current, name))) return join(current, name);
    if (current === root || !current.startsWith(root) || dirname(current) === current) return undefined;
  }
}

const rel = (root: string, path: string) => relative(root, path).split(sep).join('/');

interface TsSettings {
  module?: string;
  moduleResolution?: string;
  target?: string;
}

/** compilerOptions along the `extends` chain, the extending file winning; locations of what was read. */
function tsconfigChain(root: string, path: string, level: Level, seen = new Set<string>()): TsSettings {
  const text = read(path);
  if (text === undefined || seen.has(path)) return {};
  seen.add(path);
  const config = parseJsonc(text) as { extends?: string | string[]; compilerOptions?: Record<string, unknown> } | undefined;
  let base: TsSettings = {};
  const parents = typeof config?.extends === 'string' ? [config.extends] : config?.extends ?? [];
  for (const parent of parents) {
    const local = parent.startsWith('.') || parent.startsWith('/');
    const file = local ? resolve(dirname(path), parent.endsWith('.json') ? parent : `${parent}.json`) : packageBase(root, path, parent);
    if (file) {
      base = { ...base, ...tsconfigChain(root, file, level, seen) };
      continue;
    }
    const known = KNOWN_BASES[parent.replace(/\/tsconfig(\.json)?$/, '')];
    if (known) {
      base = { ...base, ...known };
      level.assumptions.push(`${rel(root, path)} extends "${parent}", a package that is not installed here: its settings (module ${known.module}, target ${known.target}) are assumed from that base's published tsconfig`);
    } else {
      level.assumptions.push(`${rel(root, path)} extends "${parent}", which could not be read: compiler options it sets are not known`);
    }
  }
  const options = config?.compilerOptions ?? {};
  const own: TsSettings = {};
  for (const name of ['module', 'moduleResolution', 'target'] as const) {
    const value = options[name];
    if (typeof value !== 'string') continue;
    own[name] = value.toLowerCase();
    level.locations[`typescript.${name}`] = formatLocation(rel(root, path), lineOf(text, `"${name}"`));
  }
  return { ...base, ...own };
}

/** A package `extends` (`@tsconfig/node20/tsconfig.json`) when it is installed next to the project. */
function packageBase(root: string, from: string, specifier: string): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const base = join(dir, 'node_modules', specifier);
    for (const candidate of [base, `${base}.json`, join(base, 'tsconfig.json')]) {
      if (candidate.endsWith('.json') && existsSync(candidate)) return candidate;
    }
    if (dir === root || !dir.startsWith(root) || dirname(dir) === dir) return undefined;
  }
}

function typescriptLevel(root: string, serviceDir: string, level: Level): void {
  const tsconfig = nearest(root, serviceDir, ['tsconfig.json']);
  const packageJson = nearest(root, tsconfig ? dirname(tsconfig) : serviceDir, ['package.json']);
  const settings: TsSettings = tsconfig ? tsconfigChain(root, tsconfig, level) : {};
  const manifest = packageJson ? read(packageJson) : undefined;
  const type = (parseJsonc(manifest ?? '') as { type?: unknown } | undefined)?.type;
  const ts: NonNullable<LanguageLevel['typescript']> = {};
  if (packageJson && manifest && (type === 'module' || type === 'commonjs')) {
    ts.packageType = type;
    level.locations['typescript.packageType'] = formatLocation(rel(root, packageJson), lineOf(manifest, '"type"'));
  }
  if (!tsconfig) {
    level.assumptions.push('no tsconfig.json was found: the generated TypeScript is written for module nodenext (ES modules with .js relative imports), which also compiles under a bundler');
    level.typescript = ts;
    return;
  }
  if (settings.target) ts.target = settings.target;
  if (settings.module) ts.module = settings.module;
  const module = settings.module ?? (!settings.target || settings.target === 'es3' || settings.target === 'es5' ? 'commonjs' : 'es2015');
  if (!settings.module) {
    ts.module = module;
    level.assumptions.push(`compilerOptions.module is not set: TypeScript's default for target ${settings.target ?? '(default)'}, module ${module}, is assumed`);
  }
  if (settings.moduleResolution) ts.moduleResolution = settings.moduleResolution === 'node' ? 'node10' : settings.moduleResolution;
  else {
    // TypeScript's defaults for an unset moduleResolution.
    ts.moduleResolution = module === 'node16' || module === 'nodenext' ? module : module === 'commonjs' ? 'node10' : 'bundler';
    level.assumptions.push(`compilerOptions.moduleResolution is not set: ${ts.moduleResolution}, the default for module ${module}, is assumed`);
  }
  level.typescript = ts;
}

/** `1.8` → 8, `17` → 17, `JavaVersion.VERSION_11` → 11. */
function javaRelease(written: string): number | undefined {
  const match = /(?:^|VERSION_|\b)(1[._])?(\d+)\s*$/.exec(written.trim().replace(/["')]+$/, ''));
  const value = match?.[2] ? Number(match[2]) : NaN;
  return Number.isInteger(value) && value >= 5 && value < 100 ? value : undefined;
}

function javaLevel(root: string, serviceDir: string, level: Level): void {
  const file = nearest(root, serviceDir, ['pom.xml', 'build.gradle.kts', 'build.gradle']);
  const text = file ? read(file) : undefined;
  if (!file || !text) return;
  const properties = new Map([...text.matchAll(/<([\w.-]+)>\s*([^<$]+?)\s*<\/\1>/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
  const patterns: RegExp[] = file.endsWith('pom.xml')
    ? [/<maven\.compiler\.release>\s*([^<]+?)\s*</, /<release>\s*([^<]+?)\s*</, /<java\.version>\s*([^<]+?)\s*</, /<maven\.compiler\.source>\s*([^<]+?)\s*</, /<source>\s*([^<]+?)\s*</]
    : [/languageVersion(?:\.set)?\s*[(=]\s*JavaLanguageVersion\.of\(\s*["']?(\d+)/, /options\.release(?:\.set)?\s*[(=]\s*["']?(\d+)/, /sourceCompatibility\s*=\s*(JavaVersion\.VERSION_[\d_]+|["']?[\d.]+)/, /jvmToolchain\(\s*(\d+)/];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (!match?.[1]) continue;
    // `<release>${java.version}</release>`: the property's value.
    const written = match[1].replace(/^\$\{([^}]+)\}$/, (_, name: string) => properties.get(name) ?? '');
    const release = javaRelease(written);
    if (!release) continue;
    level.java = { release };
    level.locations['java.release'] = formatLocation(rel(root, file), lineOf(text, match[0]));
    return;
  }
  level.assumptions.push(`${rel(root, file)} names no Java release: the generated Java targets release 17 (Spring Boot 3's minimum)`);
}

function goLevel(root: string, serviceDir: string, level: Level): void {
  const file = nearest(root, serviceDir, ['go.mod']);
  const text = file ? read(file) : undefined;
  if (!file || !text) return;
  const version = /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(text);
  const module = /^module\s+(\S+)/m.exec(text);
  if (!version?.[1]) {
    level.assumptions.push(`${rel(root, file)} has no go directive: Go 1.16 semantics, the go command's default for such a module, are assumed`);
  }
  level.go = { version: version?.[1] ?? '1.16', ...(module?.[1] ? { module: module[1].replace(/^"|"$/g, '') } : {}) };
  if (version) level.locations['go.version'] = formatLocation(rel(root, file), lineOf(text, version[0]));
  if (module) level.locations['go.module'] = formatLocation(rel(root, file), lineOf(text, module[0]));
}

/** The lowest 3.x a specifier allows: `>=3.9,<4` → 3.9, `^3.10` → 3.10, `~=3.11` → 3.11. */
function pythonMinimum(specifier: string): string | undefined {
  const match = /(?:>=|\^|~=|~|==)\s*(3\.\d+)|^\s*(3\.\d+)/.exec(specifier);
  return match?.[1] ?? match?.[2];
}

function pythonLevel(root: string, serviceDir: string, level: Level): void {
  const sources: Array<[string, RegExp]> = [
    ['pyproject.toml', /^\s*requires-python\s*=\s*["']([^"']+)["']/m],
    ['pyproject.toml', /^\s*python\s*=\s*["']([^"']+)["']/m],
    ['setup.cfg', /^\s*python_requires\s*=\s*(.+)$/m],
    ['setup.py', /python_requires\s*=\s*["']([^"']+)["']/],
    ['.python-version', /^\s*(3\.\d+)/m],
  ];
  for (const [name, pattern] of sources) {
    const file = nearest(root, serviceDir, [name]);
    const text = file ? read(file) : undefined;
    const match = text ? pattern.exec(text) : null;
    const minimum = match?.[1] ? pythonMinimum(match[1]) : undefined;
    if (!file || !text || !match || !minimum) continue;
    level.python = { minimum };
    level.locations['python.minimum'] = formatLocation(rel(root, file), lineOf(text, match[0].trim()));
    return;
  }
}

/**
 * The language level of the service in `serviceDir` (a folder under `root`), read from the build
 * files nearest to it; undefined when the language has none the generator depends on.
 * @example readLanguageLevel('/srv/api', '/srv/api', 'typescript')?.typescript?.module // 'commonjs'
 */
export function readLanguageLevel(root: string, serviceDir: string, language: Language): LanguageLevel | undefined {
  const level: Level = { locations: {}, assumptions: [] };
  const absRoot = resolve(root);
  if (language === 'typescript' || language === 'javascript') typescriptLevel(absRoot, serviceDir, level);
  else if (language === 'java' || language === 'kotlin') javaLevel(absRoot, serviceDir, level);
  else if (language === 'go') goLevel(absRoot, serviceDir, level);
  else if (language === 'python') pythonLevel(absRoot, serviceDir, level);
  const found = level.typescript ?? level.java ?? level.go ?? level.python;
  return found || level.assumptions.length > 0 ? level : undefined;
}
