/**
 * Dependency lists out of manifest files, each name with the line it is declared on. These are
 * line and element patterns over well-defined formats (requirements, go.mod, pom, Gradle, csproj,
 * Gemfile, pyproject); JSON manifests are parsed as JSON.
 */
import { lineAtOffset, lineOf } from './location.js';

export interface DeclaredDependency {
  readonly name: string;
  readonly line: number;
}

/**
 * Names from a JSON manifest's dependency maps (package.json, composer.json).
 * @example jsonDependencies('{"dependencies":{"pg":"^8"}}', ['dependencies']) // [{ name: 'pg', line: 1 }]
 */
export function jsonDependencies(text: string, sections: readonly string[]): DeclaredDependency[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  const out: DeclaredDependency[] = [];
  for (const section of sections) {
    const map = (parsed as Record<string, unknown>)[section];
    if (typeof map !== 'object' || map === null) continue;
    const sectionStart = text.indexOf(`"${section}"`);
    for (const name of Object.keys(map)) {
      out.push({ name, line: lineOf(text, `"${name}"`, Math.max(0, sectionStart)) });
    }
  }
  return out;
}

const REQUIREMENT = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(?:[<>=!~;@]|$)/;

/**
 * Names from requirements.txt (comments, options and URLs skipped).
 * @example requirementsDependencies('fastapi==0.110\n# x\npsycopg[binary]>=3') // fastapi@1, psycopg@3
 */
export function requirementsDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/#.*/, '');
    if (/^\s*-/.test(line) || line.includes('://')) return;
    const match = REQUIREMENT.exec(line);
    if (match?.[1]) out.push({ name: match[1], line: index + 1 });
  });
  return out;
}

/**
 * The files a requirements file includes (`-r base.txt`, `--requirement=prod.txt`, also `-c`
 * constraints), as written, relative to the including file.
 * @example requirementsIncludes('-r requirements/prod.txt\nflask') // ['requirements/prod.txt']
 */
export function requirementsIncludes(text: string): string[] {
  return [...text.matchAll(/^\s*(?:-r|--requirement)(?:\s*=\s*|\s+)(\S+)/gm)].map((m) => m[1] ?? '').filter(Boolean);
}

/**
 * Names from a Pipfile's `[packages]` and `[dev-packages]` tables (`flask = "*"`, `"psycopg2" = "*"`).
 * @example pipfileDependencies('[packages]\nFlask = "*"\n[requires]\npython_version = "3.7"') // Flask@2
 */
export function pipfileDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  let table = '';
  text.split('\n').forEach((raw, index) => {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header?.[1]) {
      table = header[1].trim();
      return;
    }
    if (table !== 'packages' && table !== 'dev-packages') return;
    const entry = /^\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*=/.exec(raw.replace(/#.*/, ''));
    if (entry?.[1]) out.push({ name: entry[1], line: index + 1 });
  });
  return out;
}

/**
 * Names from pyproject.toml: PEP 621 `dependencies = [...]` strings and Poetry/PDM
 * `[...dependencies]` tables.
 * @example pyprojectDependencies('[project]\ndependencies = ["fastapi>=0.110"]') // fastapi@2
 */
export function pyprojectDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  let table = '';
  let inArray = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\s#.*$/, '');
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*$/.exec(line);
    if (header?.[1]) {
      table = header[1].trim();
      inArray = false;
      return;
    }
    if (/^\s*(dependencies|requires|dev-dependencies|[A-Za-z0-9_-]+)\s*=\s*\[/.test(line) && /dependencies|requires|optional/.test(line + table)) {
      inArray = true;
    }
    if (inArray) {
      for (const quoted of line.matchAll(/["']([^"']+)["']/g)) {
        const name = REQUIREMENT.exec(quoted[1] ?? '')?.[1];
        if (name) out.push({ name, line: index + 1 });
      }
      // An extras bracket inside a string (`"uvicorn[standard]"`) does not close the array.
      if (line.replace(/"[^"]*"|'[^']*'/g, '').includes(']')) inArray = false;
      return;
    }
    if (/dependencies/.test(table)) {
      const entry = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*=/.exec(line);
      if (entry?.[1] && entry[1] !== 'python') out.push({ name: entry[1], line: index + 1 });
    }
  });
  return out;
}

/**
 * Module paths from go.mod `require` lines and blocks.
 * @example goModDependencies('require github.com/lib/pq v1.10.9') // [{ name: 'github.com/lib/pq', line: 1 }]
 */
export function goModDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, index) => {
    // `// indirect` entries are dependencies of dependencies (gorm pulls every SQL driver): not the project's choice.
    if (/\/\/\s*indirect\b/.test(raw)) return;
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (/^require\s*\($/.test(line)) {
      inBlock = true;
      return;
    }
    if (inBlock && line === ')') {
      inBlock = false;
      return;
    }
    const single = /^require\s+(\S+)\s+v\S+$/.exec(line);
    const inner = inBlock ? /^(\S+)\s+v\S+$/.exec(line) : null;
    const name = single?.[1] ?? inner?.[1];
    if (name) out.push({ name, line: index + 1 });
  });
  return out;
}

/**
 * `groupId:artifactId` pairs from a Maven pom.xml.
 * @example pomDependencies('<dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId></dependency>')
 */
export function pomDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  const pattern = /<(dependency|plugin)>\s*<groupId>([^<]+)<\/groupId>\s*<artifactId>([^<]+)<\/artifactId>/g;
  for (const match of text.matchAll(pattern)) {
    out.push({ name: `${match[2]?.trim()}:${match[3]?.trim()}`, line: lineAtOffset(text, match.index ?? 0) });
  }
  return out;
}

/**
 * `group:artifact` coordinates from build.gradle / build.gradle.kts dependency strings.
 * @example gradleDependencies("implementation 'com.stripe:stripe-java:26.0.0'") // com.stripe:stripe-java
 */
export function gradleDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /^\s*(?:implementation|api|compileOnly|runtimeOnly|testImplementation|kapt|annotationProcessor)\s*\(?\s*["']([\w.-]+):([\w.-]+)(?::[^"']*)?["']/.exec(line);
    if (match) out.push({ name: `${match[1]}:${match[2]}`, line: index + 1 });
  });
  return out;
}

/**
 * Package ids from `<PackageReference Include="...">`, plus the project SDK as a pseudo-package.
 * @example csprojDependencies('<Project Sdk="Microsoft.NET.Sdk.Web">') // [{ name: 'Microsoft.AspNetCore (Sdk.Web)', line: 1 }]
 */
export function csprojDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  const sdk = /<Project\s+Sdk="Microsoft\.NET\.Sdk\.Web"/.exec(text);
  if (sdk) out.push({ name: 'Microsoft.AspNetCore (Sdk.Web)', line: lineAtOffset(text, sdk.index) });
  for (const match of text.matchAll(/<PackageReference\s+Include="([^"]+)"/g)) {
    out.push({ name: match[1] ?? '', line: lineAtOffset(text, match.index ?? 0) });
  }
  return out;
}

/**
 * Gem names from a Gemfile.
 * @example gemfileDependencies("gem 'rails', '~> 7.1'") // [{ name: 'rails', line: 1 }]
 */
export function gemfileDependencies(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /^\s*gem\s+["']([^"']+)["']/.exec(line);
    if (match?.[1]) out.push({ name: match[1], line: index + 1 });
  });
  return out;
}
