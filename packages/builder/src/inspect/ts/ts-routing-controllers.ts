/**
 * typestack routing-controllers: `@JsonController`/`@Controller` classes whose `@Post/@Put/@Patch/
 * @Delete` methods are actions, and the `routePrefix` its server functions serve them under. The
 * decorators are told from NestJS's namesakes by the module they are imported from.
 */
import ts from 'typescript';
import type { MountFact, PrefixSpec, RouteFacts } from '../route-graph.js';
import type { EndpointFinding, Framework, MutatingMethod } from '../types.js';
import { envDefault } from './ts-nest-config.js';
import { endpointFinding } from './ts-routes.js';
import { spellPath } from './ts-spelled-paths.js';
import { objectArgument, staticString } from './ts-values.js';
import { decoratorsOf, literalText, nodeLocation, propertyValue, unwrap, type DecoratorUse, type ParsedSource } from './ts-source.js';

export const ROUTING_CONTROLLERS = 'routing-controllers';

/**
 * Every controller of a project hangs on this node, and the server's `routePrefix` is its mount: a
 * project serves its controllers from one routing-controllers app (controllers are often listed by
 * glob or environment variable, so which class goes to which app is not read).
 */
export const CONTROLLERS_NODE = 'routing-controllers#controllers';
const SERVER_NODE = 'routing-controllers#server';

const ROUTE_DECORATORS: Readonly<Record<string, MutatingMethod>> = { Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };
/** `createExpressServer(options)`, `useExpressServer(app, options)`: where the options are. */
const SERVER_FUNCTIONS: Readonly<Record<string, { options: number }>> = {
  createExpressServer: { options: 0 },
  useExpressServer: { options: 1 },
  createKoaServer: { options: 0 },
  useKoaServer: { options: 1 },
};

/**
 * The names this file gives routing-controllers' exports, local → exported (`import { Post as P }`);
 * a namespace import (`import * as rc`) maps `rc.` to ''.
 * @example routingControllersNames(parseSource('a.ts', "import { JsonController } from 'routing-controllers'")).get('JsonController') // 'JsonController'
 */
export function routingControllersNames(src: ParsedSource): Map<string, string> {
  const names = new Map<string, string>();
  if (!src.modules.has(ROUTING_CONTROLLERS)) return names;
  for (const statement of src.sf.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== ROUTING_CONTROLLERS) continue;
    const named = statement.importClause?.namedBindings;
    if (named && ts.isNamespaceImport(named)) names.set(`${named.name.text}.`, '');
    if (named && ts.isNamedImports(named)) for (const element of named.elements) names.set(element.name.text, (element.propertyName ?? element.name).text);
  }
  // `const { JsonController, Post } = require('routing-controllers')`
  for (const [local, from] of src.bindings) if (from === ROUTING_CONTROLLERS && !names.has(local)) names.set(local, local);
  return names;
}

/** The routing-controllers export a decorator or callee names, or undefined when it is not one of them. */
function exported(names: ReadonlyMap<string, string>, written: string): string | undefined {
  const direct = names.get(written);
  if (direct !== undefined && direct !== '') return direct;
  const dot = written.indexOf('.');
  return dot > 0 && names.get(written.slice(0, dot + 1)) === '' ? written.slice(dot + 1) : undefined;
}

/** A path argument as a mount prefix: text, constants of other modules to look up, or (not spelled) a reference that is noted as unresolved. */
function prefixSpec(src: ParsedSource, node: ts.Expression | undefined): PrefixSpec {
  if (!node) return '';
  const text = staticString(src, node);
  if (text !== undefined) return text;
  const spelled = spellPath(src, node);
  if (spelled) return { spelled };
  // Nothing to look up (a call, an environment variable): the route graph notes the prefix as unresolved.
  return { spelled: [{ node: `${src.relPath}#<unresolved>`, path: [], text: node.getText(src.sf) }] };
}

/**
 * `@Body() dto: CreateUserDto` → bound name and type; `@BodyParam('email')` and `@Body() { a, b }`
 * → fields.
 */
function actionParameters(names: ReadonlyMap<string, string>, method: ts.MethodDeclaration): { boundNames: string[]; bodyType?: string; fields: string[] } {
  const boundNames: string[] = [];
  const fields: string[] = [];
  let bodyType: string | undefined;
  for (const parameter of method.parameters) {
    for (const decorator of decoratorsOf(parameter)) {
      const name = exported(names, decorator.name);
      if (name === 'BodyParam') {
        const field = literalText(decorator.args[0]);
        if (field) fields.push(field);
      }
      if (name !== 'Body') continue;
      const typeName = parameter.type && ts.isTypeReferenceNode(parameter.type) && ts.isIdentifier(parameter.type.typeName) ? parameter.type.typeName.text : undefined;
      if (ts.isObjectBindingPattern(parameter.name)) {
        for (const element of parameter.name.elements) {
          const key = element.propertyName ?? element.name;
          if (!element.dotDotDotToken && (ts.isIdentifier(key) || ts.isStringLiteral(key))) fields.push(key.text);
        }
        continue;
      }
      if (ts.isIdentifier(parameter.name)) boundNames.push(parameter.name.text);
      if (typeName) bodyType = typeName;
    }
  }
  return { boundNames, fields, ...(bodyType ? { bodyType } : {}) };
}

/** A method's route path as the class spells it; undefined for one not written down (a RegExp, a call). */
function methodPath(src: ParsedSource, decorator: DecoratorUse): string | undefined {
  const arg = decorator.args[0];
  return arg ? staticString(src, arg) : '';
}

/**
 * The actions of one controller class, reported on the class's node (mounted on the controllers
 * node at the controller's prefix, which the route graph joins with the server's `routePrefix`).
 */
function controllerActions(src: ParsedSource, names: ReadonlyMap<string, string>, node: ts.ClassDeclaration, framework: Framework, facts: RouteFacts): EndpointFinding[] {
  const decorators = decoratorsOf(node);
  const controller = decorators.find((d) => ['JsonController', 'Controller'].includes(exported(names, d.name) ?? ''));
  if (!controller || !node.name) return [];
  const classNode = `${src.relPath}#${node.name.text}`;
  facts.mounts.push({ parent: CONTROLLERS_NODE, child: classNode, prefix: prefixSpec(src, controller.args[0]), location: nodeLocation(src, controller.node) });
  const out: EndpointFinding[] = [];
  for (const member of node.members) {
    if (!ts.isMethodDeclaration(member)) continue;
    const memberDecorators = decoratorsOf(member);
    for (const decorator of memberDecorators) {
      const method = ROUTE_DECORATORS[exported(names, decorator.name) ?? ''];
      if (!method) continue;
      const route = methodPath(src, decorator);
      // A path not written down (a RegExp, a call) cannot be shown honestly: docs/inspection.md lists it as not followed.
      if (route === undefined) continue;
      const { boundNames, bodyType, fields } = actionParameters(names, member);
      const name = ts.isIdentifier(member.name) ? member.name.text : undefined;
      const finding = endpointFinding(src, { method, route, framework, at: decorator.node, handler: member, name, boundNames, bodyType });
      out.push({
        ...finding,
        bodyFields: [...new Set([...fields, ...finding.bodyFields])],
        scope: classNode,
        // Where the generated middleware goes: routing-controllers takes middleware per action by
        // decorator, and runs `@UseBefore` ones ahead of its body parser and its `@Authorized` check.
        registration: { before: '@UseBefore(', after: `) ${decorator.node.getText(src.sf)} ${name ?? 'action'}(…)` },
      });
    }
  }
  return out;
}

/** `routePrefix` of a server function's options as a mount of the controllers node. */
function serverMount(src: ParsedSource, object: ts.ObjectLiteralExpression | undefined, at: ts.Node): MountFact | undefined {
  if (!object) return undefined;
  const location = nodeLocation(src, at);
  const written = propertyValue(object, 'routePrefix');
  if (!written) return { parent: SERVER_NODE, child: CONTROLLERS_NODE, prefix: '', location };
  const fromEnv = envDefault(src, written);
  if (fromEnv) {
    const note = `${location}: routePrefix \`${written.getText(src.sf)}\` is '${fromEnv.value}', the default of the environment variable ${fromEnv.name}; the routes change if the environment sets another.`;
    return { parent: SERVER_NODE, child: CONTROLLERS_NODE, prefix: fromEnv.value, location, note };
  }
  return { parent: SERVER_NODE, child: CONTROLLERS_NODE, prefix: prefixSpec(src, unwrap(written)), location };
}

/**
 * The actions one file declares and the server options it passes, adding the mounts to `facts`.
 * `framework` is the project's: Koa when it serves Koa (its package.json), Express otherwise — the
 * server function is usually in another file than the controllers.
 * @example routingControllers(src, 'express', facts)[0] // { method: 'POST', route: '/', scope: 'src/users.ts#UserController', … }
 */
export function routingControllers(src: ParsedSource, framework: Framework | undefined, facts: RouteFacts): EndpointFinding[] {
  const names = routingControllersNames(src);
  const out: EndpointFinding[] = [];
  if (names.size === 0) return out;
  const served: Framework = framework === 'koa' ? 'koa' : 'express';
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) out.push(...controllerActions(src, names, node, served, facts));
    if (ts.isCallExpression(node)) {
      const server = SERVER_FUNCTIONS[exported(names, node.expression.getText(src.sf)) ?? ''];
      const mount = server && serverMount(src, objectArgument(src, node.arguments[server.options]), node);
      if (mount) facts.mounts.push(mount);
    }
    // `const serverConfig: RoutingControllersOptions = { routePrefix: '/api', … }`, handed to the
    // server function from another module (a name not followed across files).
    if (ts.isVariableDeclaration(node) && node.type && ts.isTypeReferenceNode(node.type) && exported(names, node.type.typeName.getText(src.sf)) === 'RoutingControllersOptions') {
      const mount = node.initializer && ts.isObjectLiteralExpression(unwrap(node.initializer)) ? serverMount(src, unwrap(node.initializer) as ts.ObjectLiteralExpression, node) : undefined;
      if (mount) facts.mounts.push(mount);
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}
