/**
 * Spring Boot base paths: `server.servlet.context-path` and `spring.mvc.servlet.path` (servlet
 * stack) or `spring.webflux.base-path` (WebFlux) prefix every route of the application that reads
 * them. A module's own profile-less `src/main/resources/[config/]application.{properties,yml,yaml}`
 * is what that module reads without an active profile; the prefix becomes a mount of the module's
 * route-graph node (jvm-source.ts springModuleNode), resolved with every other mount.
 * The same keys elsewhere (a config server's `shared/<service>.yml`, `application-prod.yml`)
 * depend on deployment: they are reported in a note, not applied.
 */
import { isMap, isScalar, LineCounter, parseAllDocuments } from 'yaml';
import { formatLocation } from '../location.js';
import { emptyRouteFacts, joinRoute, type RouteFacts } from '../route-graph.js';

export interface SpringConfigFile {
  readonly relPath: string;
  readonly text: string;
}

/** A module's own profile-less configuration; `config/` overrides the classpath root. */
const OWN_CONFIG = /^(?:(.*)\/)?src\/main\/resources\/(config\/)?application\.(properties|ya?ml)$/;

/** Keys in Spring's relaxed form (segments lower-cased, `-` and `_` dropped); Boot 1.x names last. */
const CONTEXT_PATH = ['server.servlet.contextpath', 'server.contextpath'];
const SERVLET_PATH = ['spring.mvc.servlet.path', 'server.servletpath'];
const WEBFLUX_BASE_PATH = ['spring.webflux.basepath'];
const ALL_KEYS = [...CONTEXT_PATH, ...SERVLET_PATH, ...WEBFLUX_BASE_PATH];

interface Entry {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

function relaxed(key: string): string {
  return key.split('.').map((segment) => segment.toLowerCase().replace(/[-_]/g, '')).join('.');
}

/**
 * Whether a file may set a base path: worth keeping while the walk reads configuration files.
 * @example mayDeclareSpringBasePath('src/main/resources/application.yml', 'server:\n  servlet:\n    context-path: /api') // true
 */
export function mayDeclareSpringBasePath(relPath: string, text: string): boolean {
  return /\.(properties|ya?ml)$/.test(relPath) && !/(^|\/)src\/test\//.test(relPath) && /context[-_]?path|servlet|base[-_]?path/i.test(text);
}

function propertiesEntries(text: string): Entry[] {
  return text.split('\n').flatMap((raw, i) => {
    const found = /^\s*([\w.\-[\]]+)\s*[=:]\s*(.*?)\s*$/.exec(raw);
    return found && !/^\s*[#!]/.test(raw) ? [{ key: relaxed(found[1] ?? ''), value: found[2] ?? '', line: i + 1 }] : [];
  });
}

/** Scalar leaves as dotted keys, from the documents that no profile activation limits. */
function yamlEntries(text: string): Entry[] {
  const lines = new LineCounter();
  const out: Entry[] = [];
  for (const doc of parseAllDocuments(text, { lineCounter: lines })) {
    if ('errors' in doc && doc.errors.length > 0) continue;
    const entries: Entry[] = [];
    const walk = (node: unknown, prefix: string): void => {
      if (!isMap(node)) return;
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const path = prefix ? `${prefix}.${key}` : key;
        if (isMap(pair.value)) walk(pair.value, path);
        else if (isScalar(pair.value) && pair.value.value !== null) {
          entries.push({ key: relaxed(path), value: String(pair.value.value), line: pair.value.range ? lines.linePos(pair.value.range[0]).line : 1 });
        }
      }
    };
    walk(doc.contents, '');
    // `spring.config.activate.on-profile` (Boot 2.4+) or `spring.profiles` (before): another profile's document.
    if (entries.some((e) => e.key === 'spring.config.activate.onprofile' || e.key === 'spring.profiles')) continue;
    out.push(...entries);
  }
  return out;
}

function entriesOf(file: SpringConfigFile): Entry[] {
  return file.relPath.endsWith('.properties') ? propertiesEntries(file.text) : yamlEntries(file.text);
}

/** `${APP_PATH:/api}` → `/api`; a placeholder without a default cannot be known here. */
function literal(value: string): string | undefined {
  const placeholder = /^\$\{[^:}]+(?::([^}]*))?\}$/.exec(value.trim());
  if (placeholder) return placeholder[1];
  return /\$\{/.test(value) ? undefined : value.trim().replace(/^["']|["']$/g, '');
}

export interface SpringBasePaths {
  /** A mount per module with a base path: the module's node under its prefix. */
  readonly facts: RouteFacts;
  readonly notes: string[];
}

/**
 * The base path of every module whose own configuration sets one, as route-graph mounts, and a
 * note for each base path set where it is not applied.
 * @example springBasePaths([{ relPath: 'api/src/main/resources/application.properties', text: 'server.servlet.context-path=/api' }]).facts.mounts[0] // { child: 'spring:module:api', prefix: '/api', … }
 */
export function springBasePaths(files: readonly SpringConfigFile[]): SpringBasePaths {
  const facts = emptyRouteFacts();
  const notes: string[] = [];
  const modules = new Map<string, Array<{ file: SpringConfigFile; rank: number }>>();
  for (const file of files) {
    const own = OWN_CONFIG.exec(file.relPath);
    if (!own) {
      for (const entry of entriesOf(file).filter((e) => ALL_KEYS.includes(e.key))) {
        notes.push(`${formatLocation(file.relPath, entry.line)}: a base path \`${entry.value}\` is set outside a module's own src/main/resources/application file (a config server's shared file or a profile); routes are shown without it — add it if that is how the service runs.`);
      }
      continue;
    }
    // Later overrides earlier: classpath root before config/, YAML before .properties.
    const rank = (own[2] ? 2 : 0) + (own[3] === 'properties' ? 1 : 0);
    const node = `spring:module:${own[1] ?? '.'}`;
    modules.set(node, [...(modules.get(node) ?? []), { file, rank }]);
  }
  for (const [node, configs] of modules) {
    const values = new Map<string, { value: string; location: string }>();
    for (const { file } of configs.sort((a, b) => a.rank - b.rank)) {
      for (const entry of entriesOf(file)) if (ALL_KEYS.includes(entry.key)) values.set(entry.key, { value: entry.value, location: formatLocation(file.relPath, entry.line) });
    }
    const first = (keys: readonly string[]): { value: string; location: string } | undefined => keys.map((k) => values.get(k)).find(Boolean);
    const servlet = [first(CONTEXT_PATH), first(SERVLET_PATH)].filter((v) => v !== undefined);
    // The servlet keys mean nothing to a WebFlux application and the other way round; a module sets one family.
    const applied = servlet.length > 0 ? servlet : [first(WEBFLUX_BASE_PATH)].filter((v) => v !== undefined);
    const parts = applied.map((v) => ({ ...v, path: literal(v.value) }));
    const unknown = parts.find((p) => p.path === undefined);
    if (unknown) {
      notes.push(`${unknown.location}: the base path \`${unknown.value}\` comes from the environment; routes of that module are shown without it.`);
      continue;
    }
    const prefix = joinRoute(...parts.map((p) => p.path ?? ''));
    if (parts.length > 0 && prefix !== '/') facts.mounts.push({ parent: 'spring:application', child: node, prefix, location: parts[0]?.location ?? '' });
  }
  return { facts, notes };
}
