/**
 * The full path NestJS serves a decorated route under, once every file is known: the global prefix
 * of the route's own app (minus its `exclude` list), the URI version (`enableVersioning`, the
 * controller's or method's own version), the `RouterModule` paths above the controller's module,
 * then the controller and method paths, which may name constants another module exports
 * (`@Post(routesV1.user.root)`).
 *
 * Written without the TypeScript compiler: the route graph (route-graph.ts) loads it whatever the
 * project's language, and the TS scanner (ts-nest-paths.ts) records the facts it reads.
 */
import { envBehind } from './ts-nest-config.js';
import type { SpelledPath } from '../route-graph.js';
import type { EndpointFinding } from '../types.js';

/** Nest's `VERSION_NEUTRAL`: a route served with no version segment. */
export const NEUTRAL_VERSION = 'VERSION_NEUTRAL';


/** One route decorator (`@Post(…)` in a `@Controller(…)` class), keyed by its location and method. */
export interface NestRouteFact {
  readonly location: string;
  readonly method: string;
  /** One per path the controller is served under (`@Controller(['orders', 'purchases'])`). */
  readonly controllerPaths: readonly SpelledPath[];
  /** One per path the method is served under (`@Post(['create', 'new'])`). */
  readonly methodPaths: readonly SpelledPath[];
  /** `@Version(…)` on the method, else the controller's `version`; absent: the app's default. */
  readonly versions?: readonly string[];
  /** A path argument that spells no string (a call, a parameter), as written: the route is not known. */
  readonly unspelled?: string;
}

/** `setGlobalPrefix('api', { exclude: ['health', { path: 'hooks/stripe', method: RequestMethod.POST }] })`. */
export interface NestGlobalPrefix {
  /** The prefix as written; '' when it is not a literal (then `written` is set). */
  readonly prefix: string;
  /** A prefix read from the app's config or another module (ts-nest-config.ts), spelled for lookup. */
  readonly spelled?: SpelledPath;
  /** The environment variable whose literal default the prefix is (`process.env.API_PREFIX || 'api'`). */
  readonly env?: string;
  /** A prefix that is not a literal, as written (for notes). */
  readonly written?: string;
  /** Routes served without the prefix; `method` absent: every method. */
  readonly exclude: ReadonlyArray<{ readonly path: string; readonly method?: string }>;
  readonly location: string;
}

/** `enableVersioning({ type: VersioningType.URI, prefix, defaultVersion })`. */
export interface NestVersioning {
  /** `URI`, `HEADER`, `MEDIA_TYPE`, `CUSTOM`; only URI versions appear in the path. */
  readonly type: string;
  /** Written before the version (`v` unless `prefix` says otherwise; `prefix: false` → none). */
  readonly prefix: string;
  readonly defaults?: readonly string[];
  readonly location: string;
}

/** What one file tells about NestJS routing. */
export interface NestFacts {
  readonly prefixes: NestGlobalPrefix[];
  readonly versionings: NestVersioning[];
  readonly routes: NestRouteFact[];
}

/**
 * A fresh accumulator.
 * @example emptyNestFacts().routes // []
 */
export function emptyNestFacts(): NestFacts {
  return { prefixes: [], versionings: [], routes: [] };
}

const fileOf = (location: string): string => location.replace(/:\d+$/, '');
const dirParts = (file: string): string[] => file.split('/').slice(0, -1);

/**
 * The fact of the app a file belongs to in a monorepo: the one declared in the folder sharing the
 * longest path with it (`apps/admin/src/main.ts` for `apps/admin/src/orders.controller.ts`); the
 * first in walk order on a tie, so a single app applies to its libraries too.
 */
function nearestApp<T extends { readonly location: string }>(facts: readonly T[], file: string): T | undefined {
  const own = dirParts(file);
  let best: { fact: T; shared: number } | undefined;
  for (const fact of facts) {
    const theirs = dirParts(fileOf(fact.location));
    let shared = 0;
    while (shared < own.length && shared < theirs.length && own[shared] === theirs[shared]) shared += 1;
    if (!best || shared > best.shared) best = { fact, shared };
  }
  return best?.fact;
}

/** A Nest (path-to-regexp) exclude pattern as a regular expression: `:id`, `*`, `(.*)`, `{/*wildcard}`. */
function excludePattern(path: string): RegExp {
  let source = '';
  const text = path.replace(/^\/+|\/+$/g, '');
  for (let i = 0; i < text.length; i += 1) {
    const rest = text.slice(i);
    const param = /^[:*](\w*)\??/.exec(rest);
    if (rest.startsWith('(.*)')) {
      source += '.*';
      i += 3;
    } else if (param) {
      source += param[0].startsWith('*') ? '.*' : '[^/]+';
      i += param[0].length - 1;
    } else if (text[i] === '{') source += '(?:';
    else if (text[i] === '}') source += ')?';
    else source += (text[i] ?? '').replace(/[.+?^$|()[\]\\]/g, '\\$&');
  }
  return new RegExp(`^/?${source}/?$`);
}

/** What the route graph lends the Nest resolution: names across modules and `RouterModule` paths. */
export interface NestRouting {
  readonly canonical: (node: string) => string;
  /** Prefixes of the mounts above a node (the `RouterModule` paths above a controller). */
  readonly prefixesOf: (node: string) => string[];
  readonly join: (...parts: readonly string[]) => string;
  /** A spelled path as text, or the first constant that could not be read (route-graph.ts spelledText). */
  readonly spell: (path: SpelledPath) => { text: string } | { missing: string };
}

/**
 * A resolver of Nest endpoints' full paths over every file's facts.
 * @example nestRouter([facts], routing)(endpoint, notes) // ['/api/v1/orders']
 */
export function nestRouter(all: ReadonlyArray<NestFacts | undefined>, routing: NestRouting): (endpoint: EndpointFinding, notes: string[]) => string[] {
  const prefixes = all.flatMap((facts) => facts?.prefixes ?? []);
  const versionings = all.flatMap((facts) => facts?.versionings ?? []);
  const routes = new Map<string, NestRouteFact>();
  for (const facts of all) for (const route of facts?.routes ?? []) routes.set(`${route.location} ${route.method}`, route);
  const { join, spell } = routing;
  // A configured prefix is looked up (and its notes written) once, not once per endpoint.
  const prefixTexts = new Map<NestGlobalPrefix, string>();
  const prefixText = (global: NestGlobalPrefix | undefined, notes: string[]): string => {
    if (global?.written === undefined) return global?.prefix ?? '';
    let text = prefixTexts.get(global);
    if (text === undefined) {
      text = configuredPrefixText(global, spell, notes);
      prefixTexts.set(global, text);
    }
    return text;
  };

  return (endpoint, notes) => {
    const file = fileOf(endpoint.location);
    const global = nearestApp(prefixes, file);
    const versioning = nearestApp(versionings, file);
    const modulePrefixes = endpoint.scope ? routing.prefixesOf(endpoint.scope) : [''];
    const fact = routes.get(`${endpoint.location} ${endpoint.method}`);
    if (fact?.unspelled !== undefined) {
      notes.push(`${endpoint.location}: ${endpoint.method} path \`${fact.unspelled}\` is not a string the inspector could spell; the endpoint is left out of the design; protect it by hand.`);
      return [];
    }
    // Without a fact (a route not declared by decorator) the path is the one the scanner saw.
    const combinations: string[] = [];
    for (const controllerPath of fact?.controllerPaths ?? [[endpoint.route]]) {
      for (const methodPath of fact?.methodPaths ?? [[]]) {
        const spelled = [spell(controllerPath), spell(methodPath)];
        const missing = spelled.find((s): s is { missing: string } => 'missing' in s);
        if (missing) {
          notes.push(`${endpoint.location}: ${endpoint.method} path \`${missing.missing}\` names a constant the inspector could not read (its module was not analysed, or it is computed); the endpoint is left out of the design; protect it by hand.`);
          return [];
        }
        combinations.push(join(...spelled.map((s) => (s as { text: string }).text)));
      }
    }
    // Versions are in the path only under URI versioning; HEADER, MEDIA_TYPE and CUSTOM leave it alone.
    const versions = versioning?.type === 'URI' ? fact?.versions ?? versioning.defaults ?? [NEUTRAL_VERSION] : [NEUTRAL_VERSION];
    const out = new Set<string>();
    for (const version of versions) {
      const versionSegment = version === NEUTRAL_VERSION ? '' : `${versioning?.prefix ?? ''}${version}`;
      for (const modulePrefix of modulePrefixes) {
        for (const path of combinations) {
          const served = join(modulePrefix, path);
          // Nest matches `exclude` against the path below the prefix, version left out.
          const excluded = global?.exclude.some((e) => (e.method === undefined || e.method === endpoint.method) && excludePattern(e.path).test(served));
          out.add(join(excluded ? '' : prefixText(global, notes), versionSegment, served));
        }
      }
    }
    return [...out];
  };
}

/** A configured global prefix as text, with a note saying where it came from or that it is not known. */
function configuredPrefixText(global: NestGlobalPrefix, spell: NestRouting['spell'], notes: string[]): string {
  const spelled = global.spelled ? spell(global.spelled) : undefined;
  if (!spelled || 'missing' in spelled) {
    notes.push(`${global.location}: global prefix \`${global.written}\` is not a value the inspector could resolve; the NestJS routes are shown without it.`);
    return '';
  }
  const behind = global.spelled && envBehind(global.spelled);
  const envSpelled = behind ? spell(behind) : undefined;
  const env = global.env ?? (envSpelled && 'text' in envSpelled ? envSpelled.text : undefined);
  notes.push(
    env === undefined
      ? `${global.location}: global prefix \`${global.written}\` read as '${spelled.text}' from the app's configuration.`
      : `${global.location}: global prefix \`${global.written}\` is '${spelled.text}', the default of the environment variable ${env}; the routes change if the environment sets another.`,
  );
  return spelled.text;
}
