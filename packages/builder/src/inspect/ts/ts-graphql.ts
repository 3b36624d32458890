/**
 * GraphQL mutations in TS/JS as entry points: NestJS and type-graphql `@Resolver` classes with
 * `@Mutation` methods, Apollo/graphql-tools resolver maps (`{ Mutation: { createOrder } }`, also a
 * map kept in its own file and spread into the root one). Nexus and Pothos schema builders are
 * read in ts-graphql-builders.ts.
 * Queries are reads and never reported. The route is left empty: graphql-route.ts sets the
 * endpoint's path once every file's servers are known.
 */
import ts from 'typescript';
import type { EndpointFinding, Framework } from '../types.js';
import { declarationOf, functionOf } from './ts-declarations.js';
import { endpointFinding } from './ts-routes.js';
import { chainText, decoratorsOf, literalText, propertyValue, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** Argument types that are one value, not an input object whose fields are read. */
const SCALAR_TYPE = /^(ID|Int|Float|String|Number|Boolean|Date|DateTime|BigInt|Decimal|JSON|Upload|FileUpload|GraphQLUpload)$/;
/** A resolver's first parameter: the parent object, usually unused (`_`, `parent`, `root`). */
const PARENT_PARAM = /^(_\w*|parent|root|obj|source|src)$/;
/** Variables that hold mutation resolvers (`Mutation`, `orderMutations`, `mutationResolvers`). */
const MAP_NAME = /^(\w*Mutations?|mutations?|\w*MutationResolvers?|mutationResolvers?)$/;
const GRAPHQL_MODULE = /graphql|apollo|@graphql-tools|mercurius|yoga|pothos|nexus|resolvers?-types|generated/i;

const uniq = (items: readonly string[]): string[] => [...new Set(items)];

function propertyName(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name) ? name.text : undefined;
}

/** The function a resolver entry stands for: inline, a same-file name, wrapped (`withAuth(fn)`), or `{ resolve }`. */
const resolverFunction = (src: ParsedSource, node: ts.Expression | undefined): FunctionLike | undefined => functionOf(src, node, { property: 'resolve' });

/**
 * Fields read under a name: `args.input.customerId` and `const { customerId } = args.input` give
 * `customerId` (an input object is read field by field); `args.orderId` gives `orderId`.
 */
function fieldsUnder(fn: FunctionLike, name: string, depth: number, flat: ReadonlySet<string> = new Set()): string[] {
  const direct: string[] = [];
  const nested = new Map<string, string[]>();
  const note = (key: string, sub: readonly string[] = []): void => {
    if (!direct.includes(key)) direct.push(key);
    // An argument known to be one value (a scalar, an ID): what is read off it is not an input field.
    if (sub.length > 0 && !flat.has(key)) nested.set(key, uniq([...(nested.get(key) ?? []), ...sub]));
  };
  const bindingKeys = (pattern: ts.ObjectBindingPattern): string[] => pattern.elements.flatMap((e) => {
    if (e.dotDotDotToken) return [];
    const key = propertyName(e.propertyName) ?? (ts.isIdentifier(e.name) ? e.name.text : undefined);
    return key ? [key] : [];
  });
  const visit = (node: ts.Node): void => {
    // `ids.length`, `ids.filter(…)`: a list argument used, not a field of it.
    const method = ts.isPropertyAccessExpression(node) && ((ts.isCallExpression(node.parent) && node.parent.expression === node) || node.name.text === 'length');
    if (!method && ts.isPropertyAccessExpression(node) && ts.isIdentifier(unwrap(node.expression)) && (unwrap(node.expression) as ts.Identifier).text === name) {
      const key = node.name.text;
      const parent = node.parent;
      // `args.reason.trim()`, `args.ids.length`: a method or length of the argument, not a field inside it.
      const used = ts.isPropertyAccessExpression(parent) && ((ts.isCallExpression(parent.parent) && parent.parent.expression === parent) || parent.name.text === 'length');
      if (depth > 1 && ts.isPropertyAccessExpression(parent) && parent.expression === node && !used) note(key, [parent.name.text]);
      else if (depth > 1 && ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) note(key, bindingKeys(parent.name));
      else note(key);
    }
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isIdentifier(unwrap(node.initializer)) && (unwrap(node.initializer) as ts.Identifier).text === name
      && ts.isObjectBindingPattern(node.name)) {
      for (const element of node.name.elements) {
        const key = propertyName(element.propertyName) ?? (ts.isIdentifier(element.name) ? element.name.text : undefined);
        if (!key || element.dotDotDotToken) continue;
        note(key, depth > 1 ? targetFields(fn, element.name, depth - 1) : []);
      }
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return direct.flatMap((key) => nested.get(key) ?? [key]);
}

function targetFields(fn: FunctionLike, target: ts.BindingName, depth: number): string[] {
  if (ts.isIdentifier(target)) return fieldsUnder(fn, target.text, depth);
  if (ts.isObjectBindingPattern(target)) {
    return target.elements.flatMap((e) => (e.dotDotDotToken ? [] : [propertyName(e.propertyName) ?? (ts.isIdentifier(e.name) ? e.name.text : '')])).filter(Boolean);
  }
  return [];
}

/**
 * The fields a resolver reads from its arguments parameter (`(_, { input }) => input.total` → `total`).
 * @example argumentFields(parse('(_, { input }) => save(input.customerId)'), 1) // ['customerId']
 */
export function argumentFields(fn: FunctionLike, index = 1, flat: ReadonlySet<string> = new Set()): string[] {
  const param = fn.parameters[index];
  if (!param) return [];
  if (ts.isIdentifier(param.name)) return fieldsUnder(fn, param.name.text, 2, flat);
  if (!ts.isObjectBindingPattern(param.name)) return [];
  return uniq(param.name.elements.flatMap((element) => {
    if (element.dotDotDotToken) return [];
    const key = propertyName(element.propertyName) ?? (ts.isIdentifier(element.name) ? element.name.text : undefined);
    if (!key) return [];
    if (flat.has(key)) return [key];
    const sub = targetFields(fn, element.name, 1);
    return sub.length > 0 ? sub : [key];
  }));
}

function mutationFinding(src: ParsedSource, spec: { operation: string; at: ts.Node; handler?: FunctionLike; name: string; framework: Framework; fields: readonly string[] }): EndpointFinding {
  const found = endpointFinding(src, { method: 'POST', route: '', framework: spec.framework, at: spec.at, ...(spec.handler ? { handler: spec.handler } : {}), name: spec.name });
  return { ...found, bodyFields: uniq([...spec.fields, ...found.bodyFields]), operation: `mutation ${spec.operation}` };
}

/** `@Args('input') input: CreateOrderInput` binds an input object; `@Args('id') id: string` is one field. */
function decoratedArguments(method: ts.MethodDeclaration): { boundNames: string[]; fields: string[]; bodyType?: string } {
  const boundNames: string[] = [];
  const fields: string[] = [];
  let bodyType: string | undefined;
  for (const parameter of method.parameters) {
    const decorator = decoratorsOf(parameter).find((d) => d.name === 'Args' || d.name === 'Arg');
    if (!decorator) continue;
    const argName = literalText(decorator.args[0]) ?? literalText(propertyValue(decorator.args[0] ? unwrap(decorator.args[0]) : undefined, 'name'));
    const type = parameter.type && ts.isTypeReferenceNode(parameter.type) && ts.isIdentifier(parameter.type.typeName) ? parameter.type.typeName.text : undefined;
    // `@Args('data') { email, password }: LoginInput`: the input type, and the fields taken from it.
    if (ts.isObjectBindingPattern(parameter.name)) {
      if (type && !SCALAR_TYPE.test(type)) bodyType ??= type;
      fields.push(...parameter.name.elements.flatMap((e) => (e.dotDotDotToken ? [] : [propertyName(e.propertyName) ?? (ts.isIdentifier(e.name) ? e.name.text : '')])).filter(Boolean));
      continue;
    }
    if (!ts.isIdentifier(parameter.name)) continue;
    if (type && !SCALAR_TYPE.test(type)) {
      boundNames.push(parameter.name.text);
      bodyType ??= type;
    } else if (argName) fields.push(argName);
    else if (!parameter.type || parameter.type.kind === ts.SyntaxKind.AnyKeyword) boundNames.push(parameter.name.text);
    else fields.push(parameter.name.text);
  }
  return { boundNames, fields, ...(bodyType ? { bodyType } : {}) };
}

function resolverClass(src: ParsedSource, node: ts.ClassDeclaration, framework: Framework, out: EndpointFinding[]): void {
  if (!decoratorsOf(node).some((d) => d.name === 'Resolver')) return;
  for (const member of node.members) {
    if (!ts.isMethodDeclaration(member)) continue;
    const decorator = decoratorsOf(member).find((d) => d.name === 'Mutation');
    const name = propertyName(member.name);
    if (!decorator || !name) continue;
    const options = decorator.args.map((a) => unwrap(a)).find((a) => ts.isObjectLiteralExpression(a));
    // Schema-first `@Mutation('createCat')`, code-first `@Mutation(() => Cat, { name: 'createCat' })`.
    const operation = literalText(decorator.args[0]) ?? literalText(propertyValue(options, 'name')) ?? name;
    const { boundNames, fields, bodyType } = decoratedArguments(member);
    const found = endpointFinding(src, { method: 'POST', route: '', framework, at: decorator.node, handler: member, name, boundNames, ...(bodyType ? { bodyType } : {}) });
    out.push({ ...found, bodyFields: uniq([...fields, ...found.bodyFields]), operation: `mutation ${operation}` });
  }
}

/** True when an object of resolvers is a GraphQL mutation map and not, say, a Vuex `mutations` object. */
function isMutationMap(src: ParsedSource, obj: ts.ObjectLiteralExpression, name: string, typeText: string): boolean {
  if (/Resolvers\b/.test(typeText)) return true;
  const shaped = obj.properties.some((p) => {
    const fn = ts.isMethodDeclaration(p) ? p : ts.isPropertyAssignment(p) ? resolverFunction(src, p.initializer) : undefined;
    const first = fn?.parameters[0];
    return fn !== undefined && fn.parameters.length >= 2 && first !== undefined && ts.isIdentifier(first.name) && PARENT_PARAM.test(first.name.text);
  });
  return shaped || (name === 'Mutation' && [...src.modules].some((m) => GRAPHQL_MODULE.test(m)));
}

function mapMutations(src: ParsedSource, obj: ts.ObjectLiteralExpression, framework: Framework, out: EndpointFinding[], seen: Set<ts.Node>): void {
  if (seen.has(obj)) return;
  seen.add(obj);
  for (const property of obj.properties) {
    if (ts.isSpreadAssignment(property)) {
      // `Mutation: { ...orderMutations }`: a same-file map is read here; an imported one in its own file.
      const spread = unwrap(property.expression);
      const init = ts.isIdentifier(spread) ? declarationOf(src, spread.text)?.init : undefined;
      if (init && ts.isObjectLiteralExpression(init)) mapMutations(src, init, framework, out, seen);
      continue;
    }
    const name = propertyName(property.name);
    if (!name) continue;
    let handler: FunctionLike | undefined;
    if (ts.isMethodDeclaration(property)) handler = property;
    else if (ts.isPropertyAssignment(property)) handler = resolverFunction(src, property.initializer);
    else if (ts.isShorthandPropertyAssignment(property)) handler = declarationOf(src, name)?.fn;
    const fields = handler ? argumentFields(handler) : [];
    out.push(mutationFinding(src, { operation: name, at: property.name ?? property, ...(handler ? { handler } : {}), name, framework, fields }));
  }
}

/**
 * graphql-shield's `shield({ Mutation: { createDraft: isAuthenticated } })`: rules per mutation, not
 * resolvers (the resolvers are declared elsewhere and found there).
 */
function isPermissionMap(src: ParsedSource, map: ts.Node): boolean {
  if (![...src.modules].some((m) => /(^|\/)graphql-shield$/.test(m))) return false;
  const call = map.parent;
  if (call && ts.isCallExpression(call) && /(^|\.)shield$/.test(chainText(call.expression))) return true;
  const holder = ts.isVariableDeclaration(map.parent) && ts.isIdentifier(map.parent.name) ? map.parent.name.text : undefined;
  return holder !== undefined && new RegExp(`\\bshield\\(\\s*${holder}\\b`).test(src.sf.text);
}

/**
 * Every GraphQL mutation one file declares, with an empty route (set later from the server's path).
 * @example graphqlMutations(parseSource('r.ts', 'export const resolvers = { Mutation: { pay: (_, { input }) => charge(input.amount) } }'), 'other')
 *   // [{ method: 'POST', route: '', operation: 'mutation pay', bodyFields: ['amount'], ... }]
 */
export function graphqlMutations(src: ParsedSource, framework: Framework): EndpointFinding[] {
  const out: EndpointFinding[] = [];
  const seen = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) resolverClass(src, node, framework, out);
    if (ts.isPropertyAssignment(node) && propertyName(node.name) === 'Mutation' && !isPermissionMap(src, node.parent)) {
      const value = unwrap(node.initializer);
      const init = ts.isIdentifier(value) ? declarationOf(src, value.text)?.init : value;
      if (init && ts.isObjectLiteralExpression(init)) mapMutations(src, init, framework, out, seen);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && MAP_NAME.test(node.name.text) && node.initializer) {
      const init = unwrap(node.initializer);
      if (ts.isObjectLiteralExpression(init) && isMutationMap(src, init, node.name.text, node.type?.getText(src.sf) ?? '')) mapMutations(src, init, framework, out, seen);
    }
    // A map of its own in a mutations file: `export default { createOrder: async (_, args) => … }`.
    if (ts.isExportAssignment(node) && /mutation/i.test(src.relPath)) {
      const init = unwrap(node.expression);
      if (ts.isObjectLiteralExpression(init) && isMutationMap(src, init, 'default', '')) mapMutations(src, init, framework, out, seen);
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}
