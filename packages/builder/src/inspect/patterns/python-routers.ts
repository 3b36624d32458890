/**
 * FastAPI routers and Flask blueprints as route-graph nodes: which receivers a file binds to an app
 * or router, and the mounts (`include_router`, `register_blueprint`) between them. The two
 * frameworks treat a router's own prefix differently: FastAPI adds `include_router(r, prefix=…)`
 * in front of `APIRouter(prefix=…)`, while Flask's `register_blueprint(bp, url_prefix=…)` takes the
 * place of the `url_prefix` the Blueprint was built with (Flask's BlueprintSetupState), nested
 * blueprints included. So a blueprint's own prefix is a fact of its node, not part of its routes.
 */
import { formatLocation } from '../location.js';
import type { ModuleRef, RouteFacts } from '../route-graph.js';
import type { Framework } from '../types.js';
import { matchesWithLines } from './line-patterns.js';

/** A receiver bound to an app or router, and the prefix this file's scanner puts in front of its routes. */
export interface PyRouter {
  readonly framework: Framework;
  readonly prefix: string;
}

const CONSTRUCTION = /^(\w+)\s*=\s*(FastAPI|APIRouter|Flask|Blueprint)\(([^)]*)\)/gm;
const PREFIX_ARGUMENT = /(?:url_)?prefix\s*=\s*["']([^"']*)["']/;

/**
 * Receiver variables bound to an app or router, with the prefix each adds in this file: an
 * APIRouter's own; none for a Blueprint, whose own prefix the route graph applies (blueprintPrefixes).
 * @example pythonRouters('bp = Blueprint("x", __name__, url_prefix="/api")\n').get('bp') // { framework: 'flask', prefix: '' }
 */
export function pythonRouters(text: string): Map<string, PyRouter> {
  const out = new Map<string, PyRouter>();
  for (const { match } of matchesWithLines(text, CONSTRUCTION)) {
    const flask = match[2] === 'Flask' || match[2] === 'Blueprint';
    const prefix = flask ? '' : PREFIX_ARGUMENT.exec(match[3] ?? '')?.[1] ?? '';
    out.set(match[1] ?? '', { framework: flask ? 'flask' : 'fastapi', prefix });
  }
  return out;
}

/** `bp = Blueprint('x', __name__, url_prefix='/api')` at module level: the node `file#bp` and its own prefix. */
function blueprintPrefixes(relPath: string, text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const { match } of matchesWithLines(text, CONSTRUCTION)) {
    const prefix = match[2] === 'Blueprint' ? PREFIX_ARGUMENT.exec(match[3] ?? '')?.[1] : undefined;
    if (prefix) out.push([`${relPath}#${match[1] ?? ''}`, prefix]);
  }
  return out;
}

/**
 * The route-graph node a mount names: `router` (this file's, or the one an import binds), or
 * `items.router` with `from app.api import items` (the name `router` in the module items.py).
 * @example mountedNode('app/main.py', 'items.router', imports) // { modules: ['app/api/items.py', …], name: 'router' }
 */
export function mountedNode(relPath: string, expr: string, imports: ReadonlyMap<string, ModuleRef>): string | ModuleRef {
  const dot = expr.indexOf('.');
  const [head, tail] = dot < 0 ? [expr, undefined] : [expr.slice(0, dot), expr.slice(dot + 1)];
  const imported = imports.get(head);
  if (imported && tail) return { modules: imported.modules.filter((m) => m === `${imported.name}.py` || m === `${imported.name}/__init__.py` || m.endsWith(`/${imported.name}.py`) || m.endsWith(`/${imported.name}/__init__.py`)), name: tail };
  return imported ?? `${relPath}#${expr}`;
}

/**
 * The mounts a file makes (`app.include_router(items.router, prefix="/items")`,
 * `app.register_blueprint(bp, url_prefix="/v2")`, `parent.register_blueprint(child)`) and the
 * own prefixes of the blueprints it builds, added to `facts`; `imports` resolves a child named
 * through an import. A Flask `url_prefix=None` is Flask's "not given": the blueprint's own applies.
 */
export function pythonMounts(relPath: string, text: string, imports: ReadonlyMap<string, ModuleRef>, facts: RouteFacts): void {
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(\w+)\.(include_router|register_blueprint)\(\s*([\w.]+)([^)]*)\)/gm)) {
    const childExpr = match[3] ?? '';
    const args = (match[4] ?? '').replace(/\burl_prefix\s*=\s*None\b/, '');
    const literal = /(?:url_)?prefix\s*=\s*f?["']([^"']*)["']/.exec(args)?.[1];
    const constant = literal === undefined ? /(?:url_)?prefix\s*=\s*([\w.]+)/.exec(args)?.[1] : undefined;
    const child = mountedNode(relPath, childExpr, imports);
    const replacesOwn = match[2] === 'register_blueprint' && /\burl_prefix\s*=/.test(args);
    facts.mounts.push({
      parent: `${relPath}#${match[1] ?? ''}`, child, prefix: literal ?? (constant ? { constant } : ''), location: formatLocation(relPath, line), ...(replacesOwn ? { replacesOwn } : {}),
    });
  }
  facts.ownPrefixes?.push(...blueprintPrefixes(relPath, text));
}
