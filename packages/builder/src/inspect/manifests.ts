/**
 * Reads the manifests among the walked files (package.json and lockfiles, pyproject/requirements,
 * go.mod, pom.xml/build.gradle, *.csproj, Gemfile, composer.json, schema.prisma, Spring config,
 * deployment manifests) and turns declared dependencies into located technology findings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { lookupDependency, type Ecosystem } from './catalog.js';
import {
  csprojDependencies, gemfileDependencies, goModDependencies, gradleDependencies, jsonDependencies, pipfileDependencies, pomDependencies,
  pyprojectDependencies, requirementsDependencies, requirementsIncludes, type DeclaredDependency,
} from './manifest-parsers.js';
import { formatLocation, lineOf } from './location.js';
import { emptyFindings, type FileFindings, type Language, type Provider, type TechFinding } from './types.js';

export interface ManifestFindings extends FileFindings {
  languages: TechFinding<Language>[];
  providers: TechFinding<Provider>[];
  testFrameworks: TechFinding<string>[];
  packageManagers: TechFinding<string>[];
  instances: TechFinding<'single-server' | 'multi-instance'>[];
  projectNames: TechFinding<string>[];
}

interface ManifestKind {
  readonly ecosystem: Ecosystem;
  readonly language: Language;
  readonly parse: (text: string) => DeclaredDependency[];
}

const NPM_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

/** Python requirement files: `requirements*.txt` anywhere, and every `.txt` in a `requirements/` folder (`requirements/prod.txt`). */
const REQUIREMENTS_FILE = /(^|\/)requirements[\w.-]*\.txt$|(^|\/)requirements\/[\w.-]+\.txt$/;

function manifestKind(name: string, relPath = name): ManifestKind | undefined {
  if (name === 'package.json') return { ecosystem: 'npm', language: 'javascript', parse: (t) => jsonDependencies(t, NPM_SECTIONS) };
  if (name === 'composer.json') return { ecosystem: 'php', language: 'php', parse: (t) => jsonDependencies(t, ['require', 'require-dev']) };
  if (name === 'pyproject.toml') return { ecosystem: 'python', language: 'python', parse: pyprojectDependencies };
  if (REQUIREMENTS_FILE.test(relPath)) return { ecosystem: 'python', language: 'python', parse: requirementsDependencies };
  if (name === 'Pipfile') return { ecosystem: 'python', language: 'python', parse: pipfileDependencies };
  if (name === 'go.mod') return { ecosystem: 'go', language: 'go', parse: goModDependencies };
  if (name === 'pom.xml') return { ecosystem: 'maven', language: 'java', parse: pomDependencies };
  if (name === 'build.gradle') return { ecosystem: 'maven', language: 'java', parse: gradleDependencies };
  if (name === 'build.gradle.kts') return { ecosystem: 'maven', language: 'kotlin', parse: gradleDependencies };
  if (name.endsWith('.csproj')) return { ecosystem: 'nuget', language: 'csharp', parse: csprojDependencies };
  if (name === 'Gemfile') return { ecosystem: 'ruby', language: 'ruby', parse: gemfileDependencies };
  return undefined;
}

const LOCKFILES: Array<[string, string]> = [
  ['package-lock.json', 'npm'], ['yarn.lock', 'yarn'], ['pnpm-lock.yaml', 'pnpm'], ['bun.lockb', 'bun'], ['bun.lock', 'bun'],
];

/**
 * A fresh accumulator for everything the manifests declare.
 * @example const out = emptyManifestFindings(); readManifest(out, file, text);
 */
export function emptyManifestFindings(): ManifestFindings {
  return { ...emptyFindings(), languages: [], providers: [], testFrameworks: [], packageManagers: [], instances: [], projectNames: [] };
}

function addDependency(out: ManifestFindings, ecosystem: Ecosystem, dep: DeclaredDependency, relPath: string): void {
  const entry = ecosystem === 'nuget' && dep.name.startsWith('Microsoft.AspNetCore (')
    ? { kind: 'framework' as const, value: 'aspnet' as const }
    : lookupDependency(ecosystem, dep.name);
  if (!entry) return;
  const finding = { location: formatLocation(relPath, dep.line), evidence: `dependency "${dep.name}"` };
  if (entry.kind === 'framework') out.frameworks.push({ value: entry.value, ...finding });
  else if (entry.kind === 'database') out.databases.push({ value: entry.value, ...finding });
  else if (entry.kind === 'broker') out.brokers.push({ value: entry.value, ...finding });
  else if (entry.kind === 'provider') out.providers.push({ value: entry.value, ...finding });
  else out.testFrameworks.push({ value: entry.value, ...finding });
}

function npmLanguage(absPath: string, deps: DeclaredDependency[]): Language {
  const typed = deps.some((d) => d.name === 'typescript') || existsSync(join(dirname(absPath), 'tsconfig.json'));
  return typed ? 'typescript' : 'javascript';
}

function readSideManifests(out: ManifestFindings, name: string, relPath: string, text: string): void {
  if (name === 'schema.prisma') {
    const match = /provider\s*=\s*"(postgresql|mysql|sqlite|mongodb|sqlserver|cockroachdb)"/.exec(text);
    const value = match?.[1] === 'cockroachdb' ? 'postgresql' : match?.[1];
    if (value === 'postgresql' || value === 'mysql' || value === 'sqlite' || value === 'mongodb') {
      out.databases.push({ value, location: formatLocation(relPath, lineOf(text, match?.[0] ?? '')), evidence: `Prisma datasource "${value}"` });
    }
    return;
  }
  if (/^application[\w-]*\.(properties|ya?ml)$/.test(name)) {
    const jdbc = /jdbc:(postgresql|mysql|mariadb|sqlite):/.exec(text);
    if (jdbc?.[1]) {
      const value = jdbc[1] as 'postgresql' | 'mysql' | 'mariadb' | 'sqlite';
      out.databases.push({ value, location: formatLocation(relPath, lineOf(text, jdbc[0])), evidence: `datasource ${jdbc[0]}` });
    }
    return;
  }
  if (/\.ya?ml$/.test(name)) readDeploymentReplicas(out, relPath, text);
}

/** Kubernetes / Compose `replicas: N` with N > 1 says several instances handle the same keys. */
function readDeploymentReplicas(out: ManifestFindings, relPath: string, text: string): void {
  if (!/kind:\s*(Deployment|StatefulSet)|services:/.test(text)) return;
  const replicas = /^\s*replicas:\s*(\d+)\s*$/m.exec(text);
  if (replicas?.[1] && Number(replicas[1]) > 1) {
    out.instances.push({
      value: 'multi-instance',
      location: formatLocation(relPath, lineOf(text, replicas[0].trim())),
      evidence: `replicas: ${replicas[1]}`,
    });
  }
}

/** The name a manifest gives the project (package name, module path tail, artifactId). */
function projectName(name: string, text: string): { value: string; needle: string } | undefined {
  let match: RegExpExecArray | null = null;
  if (name === 'package.json' || name === 'composer.json') match = /"name"\s*:\s*"([^"]+)"/.exec(text);
  else if (name === 'pyproject.toml') match = /^name\s*=\s*["']([^"']+)["']/m.exec(text);
  else if (name === 'go.mod') match = /^module\s+(\S+)/m.exec(text);
  else if (name === 'pom.xml') match = /<\/parent>[\s\S]*?<artifactId>([^<]+)<\/artifactId>|^(?![\s\S]*<parent>)[\s\S]*?<artifactId>([^<]+)<\/artifactId>/.exec(text);
  else if (name.endsWith('.csproj')) return { value: name.replace(/\.csproj$/, ''), needle: '<Project' };
  const value = match?.[1] ?? match?.[2];
  if (!value || !match) return undefined;
  const needle = name === 'pom.xml' ? `<artifactId>${value}</artifactId>` : match[0].trim();
  // `@acme/payments-api` → `payments-api`; `example.com/transfers` → `transfers`.
  return { value: value.slice(value.lastIndexOf('/') + 1), needle };
}

/**
 * `-r other.txt` in a requirements file: the included file's dependencies are the project's too.
 * One that is a requirements file by its own path is read when the walk reaches it; the others
 * (`-r base.in`, a file in a skipped folder) are read here, a few levels deep at most.
 */
function readRequirementsIncludes(out: ManifestFindings, file: { absPath: string; relPath: string }, text: string, seen: Set<string>): void {
  if (seen.size > 8) return;
  for (const include of requirementsIncludes(text)) {
    const relPath = posix.normalize(posix.join(posix.dirname(file.relPath), include));
    const absPath = join(dirname(file.absPath), include);
    if (seen.has(relPath) || relPath.startsWith('..') || REQUIREMENTS_FILE.test(relPath) || !existsSync(absPath)) continue;
    seen.add(relPath);
    let included: string;
    try {
      included = readFileSync(absPath, 'utf8');
    } catch {
      continue;
    }
    for (const dep of requirementsDependencies(included)) addDependency(out, 'python', dep, relPath);
    readRequirementsIncludes(out, { absPath, relPath }, included, seen);
  }
}

const pipfileDirs = new WeakMap<ManifestFindings, Set<string>>();

/**
 * A Pipfile has no extension, so the walk never hands it over: it is read from the folder of the
 * first manifest-like file read there (requirements.txt, a .toml or .yml beside it).
 */
function readSiblingPipfile(out: ManifestFindings, file: { absPath: string; relPath: string }): void {
  const dirs = pipfileDirs.get(out) ?? new Set<string>();
  pipfileDirs.set(out, dirs);
  const dir = file.relPath.includes('/') ? file.relPath.slice(0, file.relPath.lastIndexOf('/') + 1) : '';
  if (dirs.has(dir) || file.relPath.endsWith('Pipfile')) return;
  dirs.add(dir);
  const absPath = join(dirname(file.absPath), 'Pipfile');
  if (!existsSync(absPath)) return;
  try {
    readManifest(out, { absPath, relPath: `${dir}Pipfile` }, readFileSync(absPath, 'utf8'));
  } catch {
    // An unreadable Pipfile declares nothing the inspector can use.
  }
}

/**
 * Adds what one file declares to `out`; files that are not manifests are ignored.
 * @example
 * const out = emptyManifestFindings();
 * readManifest(out, { absPath: '/app/package.json', relPath: 'package.json' }, '{"dependencies":{"pg":"8"}}');
 * out.databases[0]; // { value: 'postgresql', location: 'package.json:1', evidence: 'dependency "pg"' }
 */
export function readManifest(out: ManifestFindings, file: { absPath: string; relPath: string }, text: string): void {
  readSiblingPipfile(out, file);
  const name = file.relPath.slice(file.relPath.lastIndexOf('/') + 1);
  const kind = manifestKind(name, file.relPath);
  if (!kind) {
    readSideManifests(out, name, file.relPath, text);
    return;
  }
  const deps = kind.parse(text);
  if (kind.ecosystem === 'npm' && deps.length === 0 && !/"(dependencies|devDependencies)"/.test(text)) return;
  const language = kind.ecosystem === 'npm' ? npmLanguage(file.absPath, deps) : kind.language;
  out.languages.push({ value: language, location: formatLocation(file.relPath, 1), evidence: name });
  const named = projectName(name, text);
  if (named) {
    const line = lineOf(text, named.needle, Math.max(0, text.indexOf('</parent>')));
    out.projectNames.push({ value: named.value, location: formatLocation(file.relPath, line), evidence: name });
  }
  for (const dep of deps) addDependency(out, kind.ecosystem, dep, file.relPath);
  if (kind.parse === requirementsDependencies) readRequirementsIncludes(out, file, text, new Set([file.relPath]));
  if (kind.ecosystem === 'npm') {
    const dir = dirname(file.absPath);
    const base = file.relPath.includes('/') ? file.relPath.slice(0, file.relPath.lastIndexOf('/') + 1) : '';
    for (const [lockfile, manager] of LOCKFILES) {
      if (existsSync(join(dir, lockfile))) {
        out.packageManagers.push({ value: manager, location: formatLocation(`${base}${lockfile}`, 1), evidence: lockfile });
      }
    }
  }
}
