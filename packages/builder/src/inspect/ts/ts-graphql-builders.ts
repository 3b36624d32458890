/**
 * GraphQL mutations declared through code-first schema builders. Nexus: `objectType({ name:
 * 'Mutation', definition(t) { t.field('x', {…}) } })`, `mutationType`, `extendType({ type:
 * 'Mutation' })` and `mutationField`. Pothos: `builder.mutationType({ fields })`,
 * `builder.mutationFields(t => ({…}))`, `builder.mutationField('x', t => t.field({…}))` and
 * `builder.relayMutationField`. A field's arguments come from what its resolver reads, else from
 * its `args`; an input-object argument is read through its input type (`inputObjectType`,
 * `builder.inputType`), which this file also reports as a body shape for other files.
 */
import ts from 'typescript';
import type { EndpointFinding, Framework } from '../types.js';
import { declarationOf, functionOf } from './ts-declarations.js';
import { argumentFields } from './ts-graphql.js';
import { endpointFinding } from './ts-routes.js';
import { chainText, isFunctionLike, literalText, propertyValue, rootName, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** Argument types that are one value (GraphQL scalars and the usual custom ones). */
const SCALAR = /^(ID|Int|Float|String|Boolean|Date|DateTime|Time|BigInt|Decimal|JSON|JSONObject|Upload|File|UUID|Email|URL)$/;
/** Pothos field builders whose resolver takes the ORM query first: `(query, parent, args)`. */
const QUERY_FIRST = /^(prisma|drizzle)(Field|Connection|FieldWithInput)$/;
/** Names of input types defined elsewhere, when the file cannot say: an input object by convention. */
const INPUT_NAME = /(Input|InputType)$/;
const NEXUS = /^(nexus|@nexus\/schema)(\/|$)/;

/** A method or function-valued property of an object literal (`definition(t) {…}`, `resolve: async () => …`). */
function functionProperty(obj: ts.Expression | undefined, name: string): FunctionLike | undefined {
  const inner = obj ? unwrap(obj) : undefined;
  if (!inner || !ts.isObjectLiteralExpression(inner)) return undefined;
  for (const property of inner.properties) {
    const key = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
    if (key !== name) continue;
    if (ts.isMethodDeclaration(property)) return property;
    if (ts.isPropertyAssignment(property)) {
      const value = unwrap(property.initializer);
      return isFunctionLike(value) ? value : undefined;
    }
  }
  return undefined;
}

/** An object literal, also one a same-file name or a `() => ({…})` stands for. */
function objectOf(src: ParsedSource, node: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  if (!node) return undefined;
  const inner = unwrap(node);
  if (ts.isObjectLiteralExpression(inner)) return inner;
  if (ts.isIdentifier(inner)) {
    const init = declarationOf(src, inner.text)?.init;
    return init && ts.isObjectLiteralExpression(unwrap(init)) ? (unwrap(init) as ts.ObjectLiteralExpression) : undefined;
  }
  if (isFunctionLike(inner) && inner.body && !ts.isBlock(inner.body)) return objectOf(src, inner.body);
  return undefined;
}

function keyOf(name: ts.PropertyName | undefined): string | undefined {
  return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

/** True when the callee comes from Nexus (`objectType(…)`, `n.objectType(…)`). */
function fromNexus(src: ParsedSource, callee: ts.Expression): boolean {
  const root = rootName(callee);
  return root !== undefined && NEXUS.test(src.bindings.get(root) ?? '');
}

/** Calls on the definition block's builder parameter (`t.nonNull.field('x', {…})`) with a name first. */
function nexusFieldCalls(block: FunctionLike): Array<{ call: ts.CallExpression; name: string; method: string }> {
  const param = block.parameters[0];
  if (!param || !ts.isIdentifier(param.name) || !block.body) return [];
  const t = param.name.text;
  const out: Array<{ call: ts.CallExpression; name: string; method: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && rootName(node.expression) === t) {
      const name = literalText(node.arguments[0]);
      if (name) out.push({ call: node, name, method: node.expression.name.text });
    }
    if (!isFunctionLike(node) || node === block) ts.forEachChild(node, visit);
  };
  visit(block.body);
  return out;
}

/** The GraphQL type an argument is declared with, and whether it is an input object. */
interface ArgType {
  readonly type?: string;
  readonly object: boolean;
}

/** Nexus `nonNull(arg({ type: 'X' }))`, `stringArg()`, a bare `InputType`; Pothos `t.arg({ type: X })`, `t.arg.string()`. */
function argType(src: ParsedSource, value: ts.Expression, enums: ReadonlySet<string>, depth = 0): ArgType {
  const inner = unwrap(value);
  if (depth > 4) return { object: false };
  if (ts.isIdentifier(inner)) return typeNamed(inner.text, enums);
  if (ts.isStringLiteral(inner)) return typeNamed(inner.text, enums);
  if (ts.isArrayLiteralExpression(inner) && inner.elements[0]) return argType(src, inner.elements[0], enums, depth + 1);
  if (!ts.isCallExpression(inner)) return { object: false };
  const callee = chainText(inner.expression);
  const last = callee.slice(callee.lastIndexOf('.') + 1);
  // `t.arg.string()`, `stringArg()`, `t.arg.idList()`: one value.
  if (/\.arg\.\w+$/.test(callee) || /^(string|int|float|boolean|id)Arg$/.test(last)) return { object: false };
  if (/^(nonNull|nullable|list)$/.test(last) && inner.arguments[0]) return argType(src, inner.arguments[0], enums, depth + 1);
  const type = propertyValue(inner.arguments[0] ? unwrap(inner.arguments[0]) : undefined, 'type');
  return type ? argType(src, type, enums, depth + 1) : { object: false };
}

function typeNamed(name: string, enums: ReadonlySet<string>): ArgType {
  if (SCALAR.test(name) || enums.has(name)) return { type: name, object: false };
  return { type: name, object: true };
}

/** The declared arguments: name → type, from an `args` object (spreads of same-file objects followed). */
function declaredArgs(src: ParsedSource, args: ts.Expression | undefined, enums: ReadonlySet<string>, depth = 0): Map<string, ArgType> {
  const out = new Map<string, ArgType>();
  const obj = objectOf(src, args);
  if (!obj || depth > 3) return out;
  for (const property of obj.properties) {
    if (ts.isSpreadAssignment(property)) {
      for (const [k, v] of declaredArgs(src, property.expression, enums, depth + 1)) out.set(k, v);
      continue;
    }
    const key = keyOf(property.name);
    if (!key) continue;
    out.set(key, ts.isPropertyAssignment(property) ? argType(src, property.initializer, enums) : typeNamed(key, enums));
  }
  return out;
}

/** Input types and enums a file declares: GraphQL name and variable name → field names. */
export interface BuilderTypes {
  readonly inputs: Map<string, string[]>;
  readonly enums: Set<string>;
}

/** Keys of an object, or of the object a Pothos `(t) => ({ a: t.string(), … })` returns. */
function keysOf(src: ParsedSource, node: ts.Expression | undefined): string[] {
  return objectOf(src, node)?.properties.flatMap((p) => keyOf(p.name) ?? []) ?? [];
}

/** Keys of Pothos `{ fields: (t) => ({ a: t.string(), … }) }`. */
function pothosFieldKeys(src: ParsedSource, options: ts.Expression | undefined): string[] {
  return keysOf(src, propertyValue(options ? unwrap(options) : undefined, 'fields'));
}

/**
 * Input object types (Nexus `inputObjectType`, Pothos `builder.inputType`/`inputRef().implement`)
 * and enums of one file.
 * @example builderTypes(parseSource('s.ts', "const In = builder.inputType('In', { fields: (t) => ({ a: t.string() }) })")).inputs.get('In') // ['a']
 */
export function builderTypes(src: ParsedSource): BuilderTypes {
  const inputs = new Map<string, string[]>();
  const enums = new Set<string>();
  const record = (call: ts.CallExpression, names: Array<string | undefined>, fields: string[] | undefined): void => {
    const variable = ts.isVariableDeclaration(call.parent) && ts.isIdentifier(call.parent.name) ? call.parent.name.text : undefined;
    for (const name of [...names, variable]) {
      if (!name) continue;
      if (fields) {
        if (fields.length > 0) inputs.set(name, fields);
      } else enums.add(name);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = chainText(node.expression);
      const last = callee.slice(callee.lastIndexOf('.') + 1);
      const first = node.arguments[0] ? unwrap(node.arguments[0]) : undefined;
      if ((last === 'inputObjectType' || last === 'enumType') && fromNexus(src, node.expression)) {
        const definition = functionProperty(first, 'definition');
        record(node, [literalText(propertyValue(first, 'name'))], last === 'enumType' ? undefined : definition ? nexusFieldCalls(definition).map((f) => f.name) : []);
      } else if (ts.isPropertyAccessExpression(node.expression) && (last === 'inputType' || last === 'enumType') && literalText(first) !== undefined) {
        record(node, [literalText(first)], last === 'enumType' ? undefined : pothosFieldKeys(src, node.arguments[1]));
      } else if (last === 'implement' && ts.isPropertyAccessExpression(node.expression)) {
        // `builder.inputRef('X').implement({ fields })`, or `const XRef = builder.inputRef('X')` then `XRef.implement(…)`.
        const receiver = unwrap(node.expression.expression);
        const variable = ts.isIdentifier(receiver) ? receiver.text : undefined;
        const init = variable ? declarationOf(src, variable)?.init : receiver;
        const ref = init && ts.isCallExpression(unwrap(init)) ? (unwrap(init) as ts.CallExpression) : undefined;
        if (ref && /\.inputRef$/.test(chainText(ref.expression))) record(node, [literalText(ref.arguments[0]), variable], pothosFieldKeys(src, first));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return { inputs, enums };
}

/**
 * Input types as body shapes, for fields whose argument type another file declares.
 * @example graphqlInputShapes(src).get('PostCreateInput') // ['title', 'content']
 */
export function graphqlInputShapes(src: ParsedSource): Map<string, string[]> {
  if (!/inputObjectType|inputType|inputRef/.test(src.sf.text)) return new Map();
  return builderTypes(src).inputs;
}

interface FieldSpec {
  readonly operation: string;
  readonly at: ts.Node;
  /** The options object (`{ type, args, resolve }`). */
  readonly options?: ts.Expression;
  /** The builder method (`field`, `prismaField`, `fieldWithInput`, …). */
  readonly method: string;
  /** Pothos relayMutationField: input fields and the resolver's options are separate arguments. */
  readonly relayInput?: ts.Expression;
  readonly relayResolve?: ts.Expression;
}

/** One mutation field: fields the resolver reads, else the declared arguments; input objects through their type. */
function fieldFinding(src: ParsedSource, spec: FieldSpec, types: BuilderTypes, framework: Framework): EndpointFinding {
  const options = spec.options ? objectOf(src, spec.options) : undefined;
  const resolveHolder = spec.relayResolve ? objectOf(src, spec.relayResolve) : options;
  const resolve = functionProperty(resolveHolder, 'resolve') ?? functionOf(src, propertyValue(resolveHolder, 'resolve'));
  const args = declaredArgs(src, propertyValue(options, 'args'), types.enums);
  // Pothos with-input plugin: `input: { a: t.input.string() }` and relay mutations' `inputFields` arrive as `args.input`.
  const inputKeys = keysOf(src, spec.relayInput ?? propertyValue(options, 'input'));
  const flat = new Set([...args].filter(([, t]) => !t.object).map(([n]) => n));
  const read = resolve ? argumentFields(resolve, QUERY_FIRST.test(spec.method) ? 2 : 1, flat) : [];
  const fields: string[] = [];
  let bodyType: string | undefined;
  for (const [name, type] of args) {
    const known = type.type ? types.inputs.get(type.type) : undefined;
    if (type.object && known) fields.push(...known);
    // Declared in another file: its shape is resolved later by name, when the name says it is an input.
    else if (type.object && type.type && INPUT_NAME.test(type.type)) bodyType ??= type.type;
    else if (read.length === 0) fields.push(name);
  }
  const objectArgs = new Set([...args].filter(([, t]) => t.object && t.type && (types.inputs.has(t.type) || INPUT_NAME.test(t.type))).map(([n]) => n));
  const readFields = read.filter((f) => !objectArgs.has(f) && !(inputKeys.length > 0 && f === 'input'));
  const found = endpointFinding(src, { method: 'POST', route: '', framework, at: spec.at, ...(resolve ? { handler: resolve } : {}), name: spec.operation, ...(bodyType ? { bodyType } : {}) });
  const bodyFields = [...new Set([...readFields, ...fields, ...inputKeys, ...found.bodyFields])];
  return { ...found, bodyFields, operation: `mutation ${spec.operation}` };
}

/** Fields of a Nexus definition block (`definition(t) { t.field('x', {…}); t.string('y', {…}) }`). */
function nexusDefinition(block: FunctionLike | undefined): FieldSpec[] {
  if (!block) return [];
  return nexusFieldCalls(block).map(({ call, name, method }) => ({ operation: name, at: call, method, ...(call.arguments[1] ? { options: call.arguments[1] } : {}) }));
}

/** Fields of a Pothos `(t) => ({ x: t.field({…}) })` map. */
function pothosFields(src: ParsedSource, fields: ts.Expression | undefined): FieldSpec[] {
  const obj = fields ? objectOf(src, fields) : undefined;
  if (!obj) return [];
  return obj.properties.flatMap((p): FieldSpec[] => {
    const name = keyOf(p.name);
    if (!name || !ts.isPropertyAssignment(p)) return [];
    const value = unwrap(p.initializer);
    const method = ts.isCallExpression(value) && ts.isPropertyAccessExpression(value.expression) ? value.expression.name.text : 'field';
    return [{ operation: name, at: p.name, method, ...(ts.isCallExpression(value) && value.arguments[0] ? { options: value.arguments[0] } : {}) }];
  });
}

/** The field specs one call contributes, if it declares Mutation fields. */
function mutationSpecs(src: ParsedSource, call: ts.CallExpression): FieldSpec[] {
  const callee = chainText(call.expression);
  const last = callee.slice(callee.lastIndexOf('.') + 1);
  const first = call.arguments[0] ? unwrap(call.arguments[0]) : undefined;
  const nexus = fromNexus(src, call.expression);
  if (nexus && ((last === 'objectType' && literalText(propertyValue(first, 'name')) === 'Mutation') || last === 'mutationType'
    || (last === 'extendType' && literalText(propertyValue(first, 'type')) === 'Mutation'))) {
    return nexusDefinition(functionProperty(first, 'definition'));
  }
  if (nexus && last === 'mutationField') {
    const name = literalText(first);
    // `mutationField((t) => { t.field('x', {…}) })` is a definition block of its own.
    if (!name) return first && isFunctionLike(first) ? nexusDefinition(first) : [];
    return [{ operation: name, at: call, method: 'field', ...(call.arguments[1] ? { options: call.arguments[1] } : {}) }];
  }
  if (!ts.isPropertyAccessExpression(call.expression) || nexus) return [];
  // Pothos, on the schema builder.
  if (last === 'mutationType') return pothosFields(src, propertyValue(first, 'fields'));
  if (last === 'mutationFields') return pothosFields(src, first);
  if (last === 'mutationField' && literalText(first)) {
    const body = call.arguments[1] ? unwrap(call.arguments[1]) : undefined;
    const field = body && isFunctionLike(body) && body.body && !ts.isBlock(body.body) ? unwrap(body.body) : undefined;
    const method = field && ts.isCallExpression(field) && ts.isPropertyAccessExpression(field.expression) ? field.expression.name.text : 'field';
    const options = field && ts.isCallExpression(field) ? field.arguments[0] : undefined;
    return [{ operation: literalText(first) ?? '', at: call, method, ...(options ? { options } : {}) }];
  }
  if (last === 'relayMutationField' && literalText(first)) {
    const inputFields = propertyValue(call.arguments[1] ? unwrap(call.arguments[1]) : undefined, 'inputFields');
    return [{ operation: literalText(first) ?? '', at: call, method: 'field', ...(inputFields ? { relayInput: inputFields } : {}), ...(call.arguments[2] ? { relayResolve: call.arguments[2] } : {}) }];
  }
  return [];
}

/**
 * Every Mutation field one file declares through Nexus or Pothos, with an empty route.
 * @example builderMutations(parseSource('s.ts', "builder.mutationField('pay', (t) => t.field({ args: { id: t.arg.id() }, resolve: (_, a) => pay(a.id) }))"), 'other')[0].bodyFields // ['id']
 */
export function builderMutations(src: ParsedSource, framework: Framework): EndpointFinding[] {
  if (!/[mM]utation(Type|Field)|extendType|objectType/.test(src.sf.text)) return [];
  let types: BuilderTypes | undefined;
  const out: EndpointFinding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const specs = mutationSpecs(src, node);
      if (specs.length > 0) types ??= builderTypes(src);
      for (const spec of specs) out.push(fieldFinding(src, spec, types ?? { inputs: new Map(), enums: new Set() }, framework));
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}
