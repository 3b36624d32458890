/**
 * What a NestJS file says about where its routes are served, read from the syntax: controller and
 * method paths (literals, arrays, constants, object properties, imported constants as references),
 * versions, `@Module({ controllers })`, `RouterModule.register([...])`, `enableVersioning(...)`
 * and `setGlobalPrefix(..., { exclude })`. ts-nest-graph.ts puts them together once every file is known.
 */
import ts from 'typescript';
import type { MountFact, RouteFacts, SpelledPath } from '../route-graph.js';
import type { MutatingMethod } from '../types.js';
import { NEUTRAL_VERSION, type NestGlobalPrefix, type NestRouteFact, type NestVersioning } from './ts-nest-graph.js';
import { routingControllersNames } from './ts-routing-controllers.js';
import { spellPath } from './ts-spelled-paths.js';
import { objectArgument, staticString, valueOf } from './ts-values.js';
import { decoratorsOf, nodeLocation, propertyValue, unwrap, type DecoratorUse, type ParsedSource } from './ts-source.js';

export const NEST_ROUTE_DECORATORS: Readonly<Record<string, MutatingMethod>> = { Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };

/** The paths a route argument gives: none written → one empty path; an array → one per element. */
function pathsOf(src: ParsedSource, arg: ts.Expression | undefined): { paths: SpelledPath[] } | { unspelled: string } {
  if (!arg) return { paths: [[]] };
  const value = unwrap(arg);
  const elements = ts.isArrayLiteralExpression(value) ? value.elements : [value];
  const paths: SpelledPath[] = [];
  for (const element of elements) {
    const path = spellPath(src, element);
    if (!path) return { unspelled: element.getText(src.sf) };
    paths.push(path);
  }
  return { paths };
}

/**
 * Versions as written: `'2'`, `['1', '2']`, `VERSION_NEUTRAL` (the symbol, or a constant holding
 * one); undefined when none is written or it is not understood.
 */
export function versionsOf(src: ParsedSource, node: ts.Expression | undefined): string[] | undefined {
  if (!node) return undefined;
  const value = valueOf(src, node);
  if (ts.isArrayLiteralExpression(value)) {
    const all = value.elements.map((element) => versionsOf(src, element));
    return all.every((v) => v !== undefined) ? all.flat() as string[] : undefined;
  }
  const name = ts.isIdentifier(value) ? value.text : ts.isPropertyAccessExpression(value) ? value.name.text : undefined;
  if (name === 'VERSION_NEUTRAL') return [NEUTRAL_VERSION];
  const text = staticString(src, value);
  return text === undefined ? undefined : [text];
}

/** The paths a `@Controller(…)` argument gives: a path, an array, or `{ path, version }`. */
function controllerArgument(src: ParsedSource, controller: DecoratorUse): { arg?: ts.Expression; version?: ts.Expression } {
  const first = controller.args[0];
  const options = first ? unwrap(first) : undefined;
  if (options && ts.isObjectLiteralExpression(options)) return { arg: propertyValue(options, 'path'), version: propertyValue(options, 'version') };
  return { arg: first };
}

/** A decorated route: its decorator, method and where NestJS serves it. */
export interface NestRouteDecl {
  readonly decorator: DecoratorUse;
  readonly member: ts.MethodDeclaration;
  readonly method: MutatingMethod;
  readonly fact: NestRouteFact;
}

/**
 * The route decorators of a `@Controller` class, each with the paths of the controller and the
 * method and the versions written on them.
 * @example nestRoutes(src, controllerClass)[0].fact // { method: 'POST', controllerPaths: [['orders']], methodPaths: [[]], … }
 */
export function nestRoutes(src: ParsedSource, node: ts.ClassDeclaration): NestRouteDecl[] {
  const controller = decoratorsOf(node).find((d) => d.name === 'Controller');
  // routing-controllers exports a `@Controller` too: its classes are read by ts-routing-controllers.ts.
  if (!controller || routingControllersNames(src).has('Controller')) return [];
  const { arg, version } = controllerArgument(src, controller);
  const controllerPaths = pathsOf(src, arg);
  const controllerVersions = versionsOf(src, version);
  const out: NestRouteDecl[] = [];
  for (const member of node.members) {
    if (!ts.isMethodDeclaration(member)) continue;
    const decorators = decoratorsOf(member);
    const methodVersions = versionsOf(src, decorators.find((d) => d.name === 'Version')?.args[0]);
    for (const decorator of decorators) {
      const method = NEST_ROUTE_DECORATORS[decorator.name];
      if (!method) continue;
      const methodPaths = pathsOf(src, decorator.args[0]);
      const versions = methodVersions ?? controllerVersions;
      const unspelled = 'unspelled' in controllerPaths ? controllerPaths.unspelled : 'unspelled' in methodPaths ? methodPaths.unspelled : undefined;
      out.push({
        decorator,
        member,
        method,
        fact: {
          location: nodeLocation(src, decorator.node),
          method,
          controllerPaths: 'paths' in controllerPaths ? controllerPaths.paths : [],
          methodPaths: 'paths' in methodPaths ? methodPaths.paths : [],
          ...(versions ? { versions } : {}),
          ...(unspelled !== undefined ? { unspelled } : {}),
        },
      });
    }
  }
  return out;
}

/**
 * Adds the Nest facts a file declares by decorator: each route's paths and versions, the constants
 * other files' paths may name, and `@Module({ controllers })` as mounts of the controllers on
 * their module (so that a `RouterModule` path given to the module reaches them).
 * @example collectNestFacts(src, facts); facts.nest?.routes[0]?.controllerPaths // [['orders']]
 */
export function collectNestFacts(src: ParsedSource, facts: RouteFacts): void {
  const nest = facts.nest;
  if (!nest) return;
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) nest.routes.push(...nestRoutes(src, node).map((route) => route.fact));
    if (ts.isClassDeclaration(node) && node.name) {
      const module = decoratorsOf(node).find((d) => d.name === 'Module');
      const options = module && objectArgument(src, module.args[0]);
      const controllers = options && propertyValue(options, 'controllers');
      const list = controllers && valueOf(src, controllers);
      for (const element of list && ts.isArrayLiteralExpression(list) ? list.elements : []) {
        const controller = unwrap(element);
        if (ts.isIdentifier(controller)) {
          facts.mounts.push({ parent: `${src.relPath}#${node.name.text}`, child: `${src.relPath}#${controller.text}`, prefix: '', location: nodeLocation(src, element) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  // Routes and modules are declared by decorator: a file without one has none.
  if (src.sf.text.includes('@')) visit(src.sf);
}

/**
 * `RouterModule.register([{ path: 'admin', module: AdminModule, children: [...] }])`: the module
 * mounted at its path (children below their parent's), so that its controllers are served there.
 * @example routerModuleMounts(src, routesArray, 'src/app.module.ts:9')[0] // { child: 'src/app.module.ts#AdminModule', prefix: 'admin', … }
 */
export function routerModuleMounts(src: ParsedSource, routes: ts.Expression | undefined, location: string): MountFact[] {
  const out: MountFact[] = [];
  const walk = (list: ts.Expression | undefined, parent: string, depth: number): void => {
    const value = list && valueOf(src, list);
    if (!value || !ts.isArrayLiteralExpression(value) || depth > 6) return;
    for (const element of value.elements) {
      const entry = valueOf(src, element);
      // `children: [OrdersModule]`: a module served at its parent's path.
      if (ts.isIdentifier(entry)) {
        out.push({ parent, child: `${src.relPath}#${entry.text}`, prefix: '', location });
        continue;
      }
      if (!ts.isObjectLiteralExpression(entry)) continue;
      const module = propertyValue(entry, 'module');
      const prefix = staticString(src, propertyValue(entry, 'path')) ?? '';
      // A path that only groups children stands for a node of its own.
      const node = module && ts.isIdentifier(unwrap(module)) ? `${src.relPath}#${(unwrap(module) as ts.Identifier).text}` : `${src.relPath}#RouterModule@${entry.pos}`;
      out.push({ parent, child: node, prefix, location });
      walk(propertyValue(entry, 'children'), node, depth + 1);
    }
  };
  walk(routes, `${src.relPath}#RouterModule`, 0);
  return out;
}

/**
 * `enableVersioning({ type: VersioningType.URI, prefix, defaultVersion })` as a fact.
 * @example nestVersioning(src, optionsNode, 'src/main.ts:8') // { type: 'URI', prefix: 'v', defaults: ['1'], … }
 */
export function nestVersioning(src: ParsedSource, options: ts.Expression | undefined, location: string): NestVersioning {
  const object = objectArgument(src, options);
  const type = propertyValue(object, 'type');
  const typeName = type && ts.isPropertyAccessExpression(unwrap(type)) ? (unwrap(type) as ts.PropertyAccessExpression).name.text : type && staticString(src, type);
  const prefix = propertyValue(object, 'prefix');
  const prefixText = !prefix ? 'v' : unwrap(prefix).kind === ts.SyntaxKind.FalseKeyword ? '' : staticString(src, prefix) ?? 'v';
  const defaults = versionsOf(src, propertyValue(object, 'defaultVersion'));
  // Nest's enum values are 0..3 in that order; a type written otherwise is taken as unknown, not URI.
  return { type: typeName ?? 'unknown', prefix: prefixText, ...(defaults ? { defaults } : {}), location };
}

const REQUEST_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'SEARCH']);

/**
 * `setGlobalPrefix('api', { exclude: [...] })` as a fact; exclusions not written down are skipped.
 * @example nestGlobalPrefix(src, 'api', optionsNode, 'src/main.ts:7').exclude // [{ path: 'health' }]
 */
export function nestGlobalPrefix(src: ParsedSource, prefix: string, options: ts.Expression | undefined, location: string): NestGlobalPrefix {
  const list = propertyValue(objectArgument(src, options), 'exclude');
  const value = list && valueOf(src, list);
  const exclude = (value && ts.isArrayLiteralExpression(value) ? value.elements : []).flatMap((element) => {
    const path = staticString(src, element);
    if (path !== undefined) return [{ path }];
    const object = objectArgument(src, element);
    const routePath = staticString(src, propertyValue(object, 'path'));
    const method = propertyValue(object, 'method');
    const methodName = method && ts.isPropertyAccessExpression(unwrap(method)) ? (unwrap(method) as ts.PropertyAccessExpression).name.text : undefined;
    if (routePath === undefined) return [];
    return [{ path: routePath, ...(methodName && REQUEST_METHODS.has(methodName) ? { method: methodName } : {}) }];
  });
  return { prefix, exclude, location };
}
