/**
 * Litestar: route handler functions (`@post('/x')`, `@put`, `@patch`, `@delete`), `Controller`
 * subclasses with their `path`, and the `Router(path=…, route_handlers=[…])` / `Litestar(
 * route_handlers=[…])` lists that mount them. The body is the handler's `data` parameter (Litestar
 * passes the request body only under that name): a pydantic model, msgspec Struct or dataclass.
 * Litestar is not a framework the generator writes code for, so its routes are reported as `other`
 * with a note saying so; no generated file claims to run on it.
 */
import { formatLocation } from '../location.js';
import { joinRoute, type ModuleRef, type PrefixSpec, type RouteFacts } from '../route-graph.js';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { callText, indentBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';
import { argsOf, keyword, positional, splitArgs, stringLiteral } from './python-args.js';
import { mountedNode } from './python-routers.js';
import { endpoint } from './python.js';

const LITESTAR_IMPORT = /^[ \t]*(?:from[ \t]+litestar(?:\.\w+)*[ \t]+import|import[ \t]+litestar)\b/m;
/** `@post(`, also through the module (`@litestar.post(`, `from litestar import handlers` then `@handlers.post(`). */
const HANDLER = /^([ \t]*)@(?:litestar\.)?(?:handlers\.)?(post|put|patch|delete)\(/gm;
const METHOD: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };
/** Wrappers around the body type (`Annotated[OrderIn, Body(…)]`, `DTOData[Order]`, `list[OrderIn]`): not the model. */
const NOT_MODEL = /^(?:Annotated|DTOData|Optional|Union|List|Sequence|Body|RequestEncodingType|Any|Dict)$/;

/** The stack note every Litestar inspection carries once (the inspector keeps one copy of a note). */
export const LITESTAR_NOTE = 'Litestar routes are reported with the framework `other`: Litestar is not a framework the generator writes code for, and the generated Python integration (FastAPI or Flask) is not a Litestar middleware — port it to a Litestar middleware or handler wrapper before relying on it.';

/**
 * Litestar normalises every path without its trailing slash (`/orders/` is served as `/orders`).
 * @example litestarPath('/orders/') // '/orders'
 */
function litestarPath(path: string): string {
  return path.replace(/\/+$/, '');
}

/** A decorator's paths: `'/x'`, `path='/x'`, `['/a', '/b']`, none (`/`); undefined when not literal. */
function handlerPaths(args: readonly string[]): string[] | undefined {
  const written = keyword(args, 'path') ?? positional(args)[0];
  if (written === undefined) return [''];
  const trimmed = written.trim();
  const items = /^[[(][\s\S]*[\])]$/.test(trimmed) ? splitArgs(trimmed.slice(1, -1)) : [trimmed];
  const paths = items.map((item) => stringLiteral(item));
  return paths.every((p): p is string => p !== undefined) ? paths.map(litestarPath) : undefined;
}

/** A class's own `path = '/orders'` (a controller's), normalised; undefined when it has none. */
function classPath(text: string, classLine: number): string | undefined {
  const body = sliceLines(text, classLine + 1, indentBlockEnd(text, classLine));
  const path = /^[ \t]+path[ \t]*(?::[ \t]*str[ \t]*)?=[ \t]*r?["']([^"']*)["']/m.exec(body)?.[1];
  return path === undefined ? undefined : litestarPath(path);
}

/** The class a handler's def is indented in, with its `path`, when it is a controller. */
function enclosingController(text: string, line: number, indent: string): { name: string; path: string } | undefined {
  if (indent === '') return undefined;
  const lines = text.split('\n');
  for (let i = line - 2; i >= 0; i -= 1) {
    const current = lines[i] ?? '';
    const cls = /^(\s*)class (\w+)\b/.exec(current);
    if (cls && (cls[1] ?? '').length < indent.length) {
      return { name: cls[2] ?? '', path: classPath(text, i + 1) ?? '' };
    }
  }
  return undefined;
}

/**
 * The body model candidates of a handler: the types in its `data` parameter's annotation, module
 * prefix kept for the import lookup, the innermost first — a wrapper (`Serializable[m.OrderIn]`,
 * `DTOData[Order]`) is tried after the model it wraps.
 */
function dataType(text: string, defLine: number): string | undefined {
  const chunk = sliceLines(text, defLine, defLine + 40);
  const open = chunk.indexOf('(');
  if (open < 0) return undefined;
  const data = argsOf(callText(chunk, open, 4000)).find((param) => /^data\s*:/.test(param));
  let annotation = (data?.slice(data.indexOf(':') + 1) ?? '').replace(/=[^=\]]*$/, '').trim();
  const annotated = /^(?:typing\.)?Annotated\[([\s\S]*)\]$/.exec(annotation);
  if (annotated) annotation = splitArgs(annotated[1] ?? '')[0] ?? '';
  const depthAt = (index: number): number => [...annotation.slice(0, index)].reduce((depth, char) => depth + (char === '[' ? 1 : char === ']' ? -1 : 0), 0);
  const types = [...annotation.matchAll(/\b((?:[a-z_]\w*\.)*)([A-Z]\w*)/g)]
    .filter((m) => !NOT_MODEL.test(m[2] ?? ''))
    .map((m) => ({ type: `${m[1] ?? ''}${m[2] ?? ''}`, depth: depthAt(m.index ?? 0) }))
    .sort((a, b) => b.depth - a.depth);
  return types.length > 0 ? types.map((t) => t.type).join('|') : undefined;
}

/**
 * Mutating Litestar handlers of one file, each on its node (the function, or its controller class)
 * for the route graph to put the mounting routers' paths in front.
 * @example scanLitestarRoutes('app/orders.py', 'from litestar import post\n@post("/orders")\nasync def create(data: OrderIn) -> Order: ...\n').endpoints[0].route // '/orders'
 */
export function scanLitestarRoutes(relPath: string, text: string): { endpoints: EndpointFinding[]; notes: string[] } {
  const endpoints: EndpointFinding[] = [];
  if (!LITESTAR_IMPORT.test(text)) return { endpoints, notes: [] };
  for (const { match, line, index } of matchesWithLines(text, HANDLER)) {
    const paths = handlerPaths(argsOf(callText(text, index + match[0].length - 1)));
    const def = nextLineMatching(text, line, /^[ \t]*(?:async\s+)?def (\w+)\(/, 12);
    if (!paths || !def) continue;
    const controller = enclosingController(text, line, match[1] ?? '');
    const node = `${relPath}#${controller?.name ?? def.match[1] ?? ''}`;
    const body = dataType(text, def.line);
    for (const path of paths) {
      const route = joinRoute(controller?.path ?? '', path);
      const { bodyType: _params, ...found } = endpoint(text, relPath, { method: METHOD[match[2] ?? ''] as MutatingMethod, route, framework: 'other', line, def: { line: def.line, name: def.match[1] ?? '' } });
      endpoints.push({ ...found, ...(controller ? { handler: `${controller.name}.${def.match[1] ?? ''}` } : {}), ...(body ? { bodyType: body } : {}), scope: node });
    }
  }
  return { endpoints, notes: endpoints.length > 0 ? [LITESTAR_NOTE] : [] };
}

/**
 * A router's path as written: a literal, a controller's `path` (`path=Controller.path`, the class
 * this file declares or imports: looked up in the module that declares it, where
 * `litestarRouteFacts` records each controller's path), or another name as a constant the route
 * graph looks up — each noted when it cannot be read.
 */
function routerPath(relPath: string, written: string): PrefixSpec | undefined {
  const expr = written.trim();
  const literal = stringLiteral(expr);
  if (literal !== undefined) return literal;
  const owner = /^(\w+)\.path$/.exec(expr)?.[1];
  if (owner) return { spelled: [{ node: `${relPath}#${owner}`, path: ['path'], text: expr }] };
  return /^[A-Za-z_][\w.]*$/.test(expr) ? { constant: expr } : undefined;
}

/**
 * `Router(path='/api', route_handlers=[orders.create, OrderController])` (also positional) and
 * `Litestar(route_handlers=[…])`: each listed handler, controller or router mounted below the
 * router's path, added to `facts`.
 */
export function litestarRouteFacts(relPath: string, text: string, imports: ReadonlyMap<string, ModuleRef>, facts: RouteFacts): void {
  if (!LITESTAR_IMPORT.test(text)) return;
  // Each class's own `path`, under its node, for a router that mounts at `Controller.path`.
  for (const { match, line } of matchesWithLines(text, /^class (\w+)/gm)) {
    const path = classPath(text, line);
    if (path !== undefined) facts.constants.push([`${relPath}#${match[1] ?? ''}.path`, path]);
  }
  for (const { match, line, index } of matchesWithLines(text, /(?:^[ \t]*(\w+)[ \t]*(?::[ \t]*[\w.]+[ \t]*)?=[ \t]*)?\b(?:litestar\.)?(Router|Litestar)\(/gm)) {
    const args = argsOf(callText(text, index + match[0].length - 1));
    const router = match[2] === 'Router';
    const written = router ? keyword(args, 'path') ?? positional(args)[0] ?? '""' : '""';
    const path = routerPath(relPath, written);
    const list = keyword(args, 'route_handlers') ?? positional(args)[router ? 1 : 0] ?? '';
    if (path === undefined || !/^\[[\s\S]*\]$/.test(list.trim())) continue;
    const parent = `${relPath}#${match[1] ?? `@${match[2] ?? ''}`}`;
    for (const item of splitArgs(list.trim().slice(1, -1))) {
      if (!/^[A-Za-z_][\w.]*$/.test(item)) continue;
      facts.mounts.push({ parent, child: mountedNode(relPath, item, imports), prefix: typeof path === 'string' ? litestarPath(path) : path, location: formatLocation(relPath, line) });
    }
  }
}
