/**
 * Which router a Go route call registers on, as a node of the route graph (route-graph.ts), and
 * how those nodes nest: a function's router parameter, a router a function builds and returns
 * (go-chi's `func (rs *Resource) router() chi.Router`), the router a chi `Route`/`Group` closure
 * receives, and chi `Mount`s of routers built elsewhere (`r.Mount("/admin", adminAPI.Router())`).
 */
import { formatLocation, lineAtOffset } from '../location.js';
import type { MountFact } from '../route-graph.js';
import { scanTopLevel } from '../text-scan.js';
import { maskCode } from './code-mask.js';
import { braceBlockEnd, matchesWithLines, sliceLines } from './line-patterns.js';

/** Router parameter types: a function taking one registers routes under whatever its caller passes. */
const ROUTER_PARAM = /(\w+)\s+(?:\*gin\.(?:RouterGroup|Engine)|gin\.IRoutes|gin\.IRouter|\*echo\.(?:Group|Echo)|chi\.Router|\*mux\.Router|\*http\.ServeMux|fiber\.Router|\*fiber\.App)\b/g;

/**
 * chi's `r.With(mw)` (any number, arguments one call deep: `With(middleware.Timeout(5*time.Second))`)
 * returns a router carrying the same routes: what follows registers on `r`.
 */
/** go-chi by its import path: `github.com/go-chi/chi` (v1 to v5 as `…/chi/vN`), `github.com/pressly/chi` before it moved. */
const CHI_IMPORT = /"github\.com\/(?:go-chi|pressly)\/chi(?:\/v\d+)?"/;

export const CHI_WITH_CHAIN = String.raw`(?:\.With\((?:[^()]|\([^()]*\))*\))*`;

interface GoFunc {
  readonly name: string;
  /** 1-based lines of the `func` header and of its closing brace. */
  readonly start: number;
  readonly end: number;
  readonly routerParams: readonly string[];
  /** The whole parameter list, for the types of non-router parameters. */
  readonly params: string;
  readonly receiver?: { readonly name: string; readonly type: string };
}

/**
 * Top-level functions and methods with their extent and router parameters.
 * @example goFuncs('func (rs *Res) routes(r chi.Router) {\n}\n')[0] // { name: 'routes', routerParams: ['r'], receiver: { name: 'rs', type: 'Res' }, … }
 */
function goFuncs(text: string): GoFunc[] {
  return matchesWithLines(text, /^func (?:\(([^)]*)\)\s*)?(\w+)\(([^)]*)\)/gm).map(({ match, line }) => {
    const receiver = /^\s*(\w+)\s+\*?(\w+)/.exec(match[1] ?? '');
    const params = match[3] ?? '';
    return {
      name: match[2] ?? '', start: line, end: braceBlockEnd(text, line), routerParams: [...params.matchAll(ROUTER_PARAM)].map((m) => m[1] ?? ''), params,
      ...(receiver ? { receiver: { name: receiver[1] ?? '', type: receiver[2] ?? '' } } : {}),
    };
  });
}

/**
 * Imports by the name code uses for them: `users "x/y/users"` or the path's last segment.
 * @example goImports('import users "example.com/app/users"').has('users') // true
 */
export function goImports(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^\s*(?:import\s+)?(\w+\s+)?"([\w./-]+)"\s*$/gm)) {
    const path = m[2] ?? '';
    const name = m[1]?.trim() ?? path.slice(path.lastIndexOf('/') + 1);
    if (name !== '_') out.set(name, name);
  }
  return out;
}

/** A chi `Route`/`Group` closure: its body registers on the router it receives as `param`. */
interface ChiClosure {
  readonly node: string;
  /** Offsets of the body's braces. */
  readonly open: number;
  readonly close: number;
  readonly param: string;
  /** The router the closure's routes hang under, by the receiver of the `Route`/`Group` call. */
  readonly receiver: string;
  readonly prefix: string;
  readonly index: number;
  readonly line: number;
}

function chiClosures(relPath: string, text: string): ChiClosure[] {
  const pattern = new RegExp(String.raw`\b(\w+)${CHI_WITH_CHAIN}\.(Route|Group)\(\s*(?:"([^"]*)"\s*,\s*)?func\s*\(\s*(\w+)\s+[\w.*]+\s*\)\s*\{`, 'g');
  const found = matchesWithLines(text, pattern);
  if (found.length === 0) return [];
  // Comments, strings and runes blanked: a chi path `"/{orderID}"` or an apostrophe in a comment opens no brace.
  const masked = maskCode(text, 'go', { strings: true });
  return found.map(({ match, line, index }) => {
    const open = index + match[0].length - 1;
    return {
      node: `${relPath}#${match[2] ?? ''}@${line}`, open, close: scanTopLevel(masked, open + 1, (char) => char === '}'),
      param: match[4] ?? '', receiver: match[1] ?? '', prefix: match[3] ?? '', index, line,
    };
  });
}

/** A Go type by package (`pwdless.Resource`), for the node of a method that returns a router. */
interface GoType { readonly pkg: string; readonly name: string }

export interface GoRouterScopes {
  /** The route-graph node of the router `receiver` names at `index`. */
  nodeOf(receiver: string, index: number): string;
  /** Whether `name` at `index` is a router parameter (of the enclosing function or a chi closure). */
  isRouterParam(name: string, index: number): boolean;
  /** chi `Route`/`Group` closures and calls, and `Mount`s, as mounts of one node under another. */
  chiMounts(): MountFact[];
}

/**
 * The router scopes of one file.
 * @example goRouterScopes('a.go', text, 'api', new Map()).nodeOf('r', text.indexOf('r.Post')) // 'go:api#Resource.router'
 */
export function goRouterScopes(relPath: string, text: string, pkg: string, roots: ReadonlyMap<string, string>): GoRouterScopes {
  const funcs = goFuncs(text);
  const closures = chiClosures(relPath, text);
  const imports = goImports(text);
  const funcAt = (index: number): GoFunc | undefined => {
    const line = lineAtOffset(text, index);
    return funcs.find((f) => line > f.start && line <= f.end);
  };
  const closureOf = (name: string, index: number): ChiClosure | undefined => {
    let inner: ChiClosure | undefined;
    for (const c of closures) if (c.param === name && c.open < index && index < c.close && (!inner || c.open > inner.open)) inner = c;
    return inner;
  };
  const bodyOf = (fn: GoFunc): string => sliceLines(text, fn.start, fn.end);
  // A method keeps its receiver type in its node: one package often has several resources, each
  // with its own `router()` (go-base's app.AccountResource and app.ProfileResource).
  const returnedNode = (fn: GoFunc): string => `go:${pkg}#${fn.receiver ? `${fn.receiver.type}.` : ''}${fn.name}`;

  const nodeOf = (receiver: string, index: number): string => {
    const root = roots.get(receiver) ?? receiver;
    const closure = closureOf(root, index);
    if (closure) return closure.node;
    const fn = funcAt(index);
    if (fn?.routerParams.includes(root)) return `go:${pkg}#${fn.name}`;
    // A router the function builds and returns is the function's: whoever mounts its result prefixes it.
    if (fn && new RegExp(`\\breturn\\s+${root}\\s*(?:[,;}]|$)`, 'm').test(bodyOf(fn))) return returnedNode(fn);
    return `${relPath}#${root}`;
  };

  /** The type of `a`, `a.Accounts`: a receiver, a typed parameter, a `New<Type>(…)` or `&Type{…}` value, then struct fields of this file. */
  const typeOf = (chain: readonly string[], index: number): GoType | undefined => {
    const [head, ...fields] = chain;
    if (!head) return undefined;
    const fn = funcAt(index);
    const scope = fn ? bodyOf(fn) : text;
    const qualified = (qualifier: string | undefined, name: string | undefined): GoType | undefined => {
      const owner = qualifier ? imports.get(qualifier) : pkg;
      return owner && name ? { pkg: owner, name } : undefined;
    };
    let type: GoType | undefined;
    if (fn?.receiver?.name === head) type = { pkg, name: fn.receiver.type };
    else {
      const param = new RegExp(`\\b${head}\\s+\\*?(?:(\\w+)\\.)?([A-Z]\\w*)`).exec(fn?.params ?? '');
      const built = new RegExp(`\\b${head}\\s*(?:,\\s*\\w+\\s*)*:?=\\s*&?(?:(\\w+)\\.)?(?:New([A-Z]\\w*)\\s*\\(|([A-Z]\\w*)\\s*\\{)`).exec(scope);
      type = param ? qualified(param[1], param[2]) : built ? qualified(built[1], built[2] ?? built[3]) : undefined;
    }
    for (const field of fields) {
      if (!type || type.pkg !== pkg) return undefined;
      const struct = matchesWithLines(text, new RegExp(`^type ${type.name} struct \\{`, 'gm'))[0];
      if (!struct) return undefined;
      const declared = new RegExp(`^\\s*${field}\\s+\\*?(?:(\\w+)\\.)?(\\w+)`, 'm').exec(sliceLines(text, struct.line + 1, braceBlockEnd(text, struct.line)));
      type = declared ? qualified(declared[1], declared[2]) : undefined;
    }
    return type;
  };

  /**
   * The node a mounted expression stands for: `adminRouter()`, `admin.Router()`, `adminAPI.Router()`,
   * `a.Accounts.router()` (a router a function returns), or a local router variable.
   */
  const mountedNode = (expr: string, called: boolean, index: number): string | undefined => {
    const chain = expr.split('.');
    if (!called) {
      if (chain.length !== 1) return undefined;
      // `sub := chi.NewRouter()` mounted as is, or a variable holding what a call returned.
      const fn = funcAt(index);
      const assigned = new RegExp(`\\b${expr}\\s*(?:,\\s*\\w+\\s*)?:?=\\s*([\\w.]+)\\(`).exec(fn ? bodyOf(fn) : text)?.[1];
      if (!assigned) return undefined;
      return /^chi\.New(?:Router|Mux)$/.test(assigned) ? nodeOf(expr, index) : mountedNode(assigned, true, index);
    }
    const method = chain.pop() ?? '';
    if (chain.length === 0) return `go:${pkg}#${method}`;
    if (chain.length === 1 && imports.has(chain[0] ?? '')) return `go:${chain[0]}#${method}`;
    const type = typeOf(chain, index);
    return type ? `go:${type.pkg}#${type.name}.${method}` : undefined;
  };

  const chiMounts = (): MountFact[] => {
    // gin and echo take middleware in `Group("/x", mw)`: read as chi's `Route("/x", fn)` it would mount a function that registers nothing.
    if (!CHI_IMPORT.test(text)) return [];
    const mounts: MountFact[] = closures.map((c) => ({ parent: nodeOf(c.receiver, c.index), child: c.node, prefix: c.prefix, location: formatLocation(relPath, c.line) }));
    // `r.Route("/orders", orderRoutes)`, `r.Group(admin.Routes)`: a function whose router parameter receives the sub-router.
    const named = new RegExp(String.raw`\b(\w+)${CHI_WITH_CHAIN}\.(?:Route|Group)\(\s*(?:"([^"]*)"\s*,\s*)?([\w.]+)\s*\)`, 'g');
    for (const { match, line, index } of matchesWithLines(text, named)) {
      const target = (match[3] ?? '').split('.');
      const name = target.pop() ?? '';
      const qualifier = target.join('.');
      const owner = !qualifier ? pkg : imports.get(qualifier) ?? typeOf(target, index)?.pkg ?? pkg;
      mounts.push({ parent: nodeOf(match[1] ?? '', index), child: `go:${owner}#${name}`, prefix: match[2] ?? '', location: formatLocation(relPath, line) });
    }
    const mount = new RegExp(String.raw`\b(\w+)${CHI_WITH_CHAIN}\.Mount\(\s*"([^"]*)"\s*,\s*([\w.]+)\s*(\()?`, 'g');
    for (const { match, line, index } of matchesWithLines(text, mount)) {
      const child = mountedNode(match[3] ?? '', match[4] === '(', index);
      if (child) mounts.push({ parent: nodeOf(match[1] ?? '', index), child, prefix: match[2] ?? '', location: formatLocation(relPath, line) });
    }
    return mounts;
  };

  return { nodeOf, isRouterParam: (name, index) => Boolean(closureOf(name, index)) || Boolean(funcAt(index)?.routerParams.includes(name)), chiMounts };
}
