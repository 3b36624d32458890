/**
 * Python GraphQL mutations as entry points, by pattern: graphene `Mutation` subclasses (`class
 * Arguments`/`class Input` + `mutate`), exposed where a `Mutation` ObjectType registers them
 * (`create_order = CreateOrder.Field()`, possibly in another file), or root fields with a resolver
 * (`create_order = graphene.Field(Order, sku=graphene.String())` + `def resolve_create_order`);
 * graphene-django form and serializer mutations (their input is the form's or serializer's fields,
 * django-input-fields.ts); strawberry `@strawberry.mutation` methods; ariadne
 * `MutationType().field("x")`. Also input shapes (graphene `InputObjectType`,
 * `@strawberry.input`) and where the server answers (Django/Flask `GraphQLView`, strawberry
 * `GraphQLRouter`, ASGI `GraphQL(schema)` mounts). Queries are reads and never reported.
 */
import { GRAPHENE_SCOPE, emptyGraphqlFacts, schemaName, type GraphqlFacts } from '../graphql-route.js';
import { formatLocation } from '../location.js';
import type { MountFact, RouteFacts } from '../route-graph.js';
import type { EndpointFinding, Framework } from '../types.js';
import { argsOf, keyword, splitArgs, stringLiteral } from './python-args.js';
import { djangoClasses, type DjangoClass } from './python-django-classes.js';
import { callText, indentBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';

export interface PythonGraphql {
  readonly endpoints: EndpointFinding[];
  readonly shapes: Map<string, string[]>;
  readonly facts: GraphqlFacts;
  readonly mounts: MountFact[];
}

/** Argument types that are one value; any other capitalised type is an input object read field by field. */
const SCALAR = /^(String|Int|Float|Boolean|ID|UUID|Decimal|DateTime|Date|Time|JSONString|JSON|List|NonNull|Argument|Field|Enum|Upload|str|int|float|bool|bytes|Optional|list|dict|Decimal|datetime|date|Any)$/;
const NOT_ARGUMENTS = /^(self|cls|info|root|obj|parent|_\w*)$/;

function frameworkOf(text: string): Framework {
  if (/graphene_django|strawberry\.django|strawberry_django|from django|import django/.test(text)) return 'django';
  if (/fastapi/.test(text)) return 'fastapi';
  if (/flask/.test(text)) return 'flask';
  return 'other';
}

/** Last line of a `def` starting at `line` (its indented block). */
function defSpan(text: string, line: number): { start: number; end: number } {
  return { start: line, end: indentBlockEnd(text, line) };
}

function finding(relPath: string, spec: { line: number; handler: string; operation: string; fields: string[]; bodyType?: string; span?: { start: number; end: number }; framework: Framework; scope?: string }): EndpointFinding {
  return {
    method: 'POST',
    route: '',
    framework: spec.framework,
    location: formatLocation(relPath, spec.line),
    handler: spec.handler,
    bodyFields: [...new Set(spec.fields)],
    ...(spec.bodyType ? { bodyType: spec.bodyType } : {}),
    webhook: false,
    ...(spec.span ? { span: spec.span } : {}),
    ...(spec.scope ? { scope: spec.scope } : {}),
    operation: `mutation ${spec.operation}`,
  };
}

/** One argument: a scalar is a field; an input object (`OrderInput(required=True)`, `graphene.Argument(OrderInput)`) is the body type. */
function classifyArgument(name: string, value: string, into: { fields: string[]; bodyType?: string }): void {
  const m = /^(?:graphene\.)?(\w+)\(\s*(?:(?:graphene\.)?(\w+))?/.exec(value.trim());
  if (!m) return;
  const [, type = '', inner = ''] = m;
  const objectType = type === 'Argument' || type === 'NonNull' ? inner : type;
  if (objectType && /^[A-Z]/.test(objectType) && !SCALAR.test(objectType)) into.bodyType ??= objectType;
  else into.fields.push(name);
}

/** `name = graphene.String(required=True)` / `input = OrderInput(required=True)` / `x = graphene.Argument(OrderInput)`: scalars as fields, an input object as the body type. */
function grapheneArguments(block: string): { fields: string[]; bodyType?: string } {
  const out: { fields: string[]; bodyType?: string } = { fields: [] };
  for (const m of block.matchAll(/^[ \t]+(\w+)\s*=\s*((?:graphene\.)?\w+\([^\n]*)/gm)) classifyArgument(m[1] ?? '', m[2] ?? '', out);
  return out;
}

/** Keywords of `graphene.Field(...)` that configure the field rather than declare an argument. */
const FIELD_OPTIONS = /^(args|resolver|source|deprecation_reason|name|description|required|default_value)$/;
const ROOT_FIELD = /^(Field|List|NonNull|String|Int|Float|Boolean|ID|UUID|Decimal|DateTime|Date|Time|JSONString)$/;

/**
 * Root fields of a `Mutation` type that resolve themselves: `pay = graphene.Field(Payment,
 * order_id=graphene.ID())` with `def resolve_pay(root, info, order_id)` (or `resolver=`). Every
 * field of the Mutation type is a mutation; one without a resolver does nothing and is not reported.
 */
function rootResolverFields(relPath: string, text: string, classLine: number, end: number, framework: Framework, out: PythonGraphql): void {
  const block = sliceLines(text, classLine + 1, end);
  const indent = /^([ \t]+)\S/m.exec(block)?.[1];
  if (!indent) return;
  for (const { match, index, line } of matchesWithLines(block, new RegExp(`^${indent}(\\w+)\\s*=\\s*(?:graphene\\.)?(\\w+)\\(`, 'gm'))) {
    const [, name = '', type = ''] = match;
    if (!ROOT_FIELD.test(type)) continue;
    const args = argsOf(callText(block, index));
    const resolver = keyword(args, 'resolver');
    const defName = resolver && /^\w+$/.test(resolver) ? resolver : `resolve_${name}`;
    // The class's own `resolve_x`; a `resolver=` function may be anywhere in the file.
    const defPattern = new RegExp(`^[ \\t]*(?:async\\s+)?def ${defName}\\(`, 'm');
    const own = resolver ? undefined : matchesWithLines(block, defPattern)[0];
    const defLine = own ? classLine + own.line : matchesWithLines(text, defPattern)[0]?.line;
    if (defLine === undefined || (!resolver && !own)) continue;
    const declared: { fields: string[]; bodyType?: string } = { fields: [] };
    for (const arg of args) {
      const kw = /^(\w+)\s*=(?!=)\s*([\s\S]*)$/.exec(arg);
      if (kw && !FIELD_OPTIONS.test(kw[1] ?? '')) classifyArgument(kw[1] ?? '', kw[2] ?? '', declared);
    }
    // `args={"order_id": graphene.ID()}`
    const dict = keyword(args, 'args');
    if (dict?.startsWith('{')) {
      for (const entry of splitArgs(dict.slice(1, -1))) {
        const kv = /^["'](\w+)["']\s*:\s*([\s\S]+)$/.exec(entry);
        if (kv) classifyArgument(kv[1] ?? '', kv[2] ?? '', declared);
      }
    }
    const operation = stringLiteral(keyword(args, 'name')) ?? schemaName(name);
    out.endpoints.push(finding(relPath, {
      line: classLine + line, handler: defName, operation, fields: declared.fields,
      ...(declared.bodyType ? { bodyType: declared.bodyType } : {}), span: defSpan(text, defLine), framework,
    }));
  }
}

/** `class Meta: form_class = UserForm` / `serializer_class = …` of a graphene-django mutation: its input comes from there. */
function formInput(cls: DjangoClass | undefined, bases: string, location: string, out: PythonGraphql): void {
  const meta = cls?.meta;
  const form = meta?.refs.get('form_class');
  const serializer = meta?.refs.get('serializer_class');
  const ref = form ?? serializer;
  if (!cls || !meta || !ref) return;
  const only = meta.lists.get('only_fields');
  const exclude = meta.lists.get('exclude_fields');
  const lookupField = meta.strings.get('lookup_field');
  out.facts.formInputs.push({
    type: cls.name, location, source: form ? 'form' : 'serializer', ref,
    ...(only ? { only } : {}), ...(exclude ? { exclude } : {}), ...(lookupField ? { lookupField } : {}),
    ...(form && /\bDjangoModelFormMutation\b/.test(bases) ? { addsId: true } : {}),
  });
}

function grapheneMutations(relPath: string, text: string, framework: Framework, classes: readonly DjangoClass[], out: PythonGraphql): void {
  for (const { match, line } of matchesWithLines(text, /^class (\w+)(?:\(([^)]*)\))?\s*:/gm)) {
    const [, name = '', bases = ''] = match;
    const end = indentBlockEnd(text, line);
    const body = sliceLines(text, line + 1, end);
    // A Mutation type, or a mixin of one (`class Mutation:` combined into the root type elsewhere).
    if (/Mutation/.test(name) && (/\b(?:ObjectType|AbstractType)\b/.test(bases) || /^\s*(?:object)?\s*$/.test(bases))) {
      // Each `field = SomeMutation.Field()` exposes that class under the field's name.
      for (const field of matchesWithLines(body, /^[ \t]+(\w+)\s*=\s*([\w.]+)\.Field\(/gm)) {
        const type = (field.match[2] ?? '').split('.').pop() ?? '';
        if (/^(graphene|relay)(\.|$)/.test(field.match[2] ?? '')) continue;
        out.facts.registrations.push({ type, field: field.match[1] ?? '', location: formatLocation(relPath, line + field.line) });
      }
      rootResolverFields(relPath, text, line, end, framework, out);
      continue;
    }
    if (/\bInputObjectType\b/.test(bases)) {
      const fields = [...body.matchAll(/^[ \t]{2,}(\w+)\s*=\s*(?:graphene\.)?\w+\(/gm)].map((m) => m[1] ?? '').filter(Boolean);
      if (fields.length > 0) out.shapes.set(name, fields);
      continue;
    }
    if (!/\w*Mutation\b/.test(bases) || /\bObjectType\b/.test(bases)) continue;
    const args = /^([ \t]+)class (?:Arguments|Input):[ \t]*$/m.exec(body);
    const argsLine = args ? line + 1 + body.slice(0, args.index).split('\n').length - 1 : undefined;
    const declared = argsLine ? grapheneArguments(sliceLines(text, argsLine + 1, indentBlockEnd(text, argsLine))) : { fields: [] as string[] };
    // DjangoFormMutation / DjangoModelFormMutation / SerializerMutation: the form or serializer is the
    // input, resolved once every file is read (its Meta and read-only fields too, which a body shape
    // of the serializer's declared fields would not honour).
    const location = formatLocation(relPath, line);
    formInput(classes.find((c) => c.location === location), bases, location, out);
    const bodyType = declared.bodyType;
    const mutate = nextLineMatching(text, line, /^[ \t]+def (mutate|mutate_and_get_payload|perform_mutate)\(/, end - line + 1);
    // A form or serializer mutation that overrides nothing saves in the library (`form.save()`,
    // `serializer.save()`): no span of its own, so its cost is read as a write defined elsewhere.
    const inLibrary = !mutate && out.facts.formInputs.some((f) => f.location === location);
    const span = mutate ? defSpan(text, mutate.line) : inLibrary ? undefined : { start: line, end };
    out.endpoints.push(finding(relPath, {
      line, handler: name, operation: schemaName(name.charAt(0).toLowerCase() + name.slice(1)), fields: declared.fields,
      ...(bodyType ? { bodyType } : {}), ...(span ? { span } : {}), framework, scope: `${GRAPHENE_SCOPE}${name}`,
    }));
  }
}

/** A signature's typed parameters, the first few lines after `def`: input objects and scalar fields. */
function signatureArguments(text: string, defLine: number): { fields: string[]; bodyType?: string; bodyParam?: string; params: string[] } {
  const signature = /\(([^)]*(?:\)[^)]*)*?)\)\s*(?:->[^:]+)?:/.exec(sliceLines(text, defLine, defLine + 12))?.[1] ?? '';
  const fields: string[] = [];
  const params: string[] = [];
  let bodyType: string | undefined;
  let bodyParam: string | undefined;
  for (const part of signature.split(/,(?![^[]*\])/)) {
    const m = /^\s*\*{0,2}(\w+)\s*(?::\s*([^=]+))?/.exec(part);
    const name = m?.[1];
    if (!name || NOT_ARGUMENTS.test(name) || /^\s*\*/.test(part)) continue;
    const type = (m?.[2] ?? '').trim().replace(/^(?:strawberry\.|graphene\.)/, '').replace(/^Annotated\[\s*([\w.]+).*$/, '$1');
    if (/\bInfo\b/.test(type)) continue;
    params.push(name);
    if (/^[A-Z]\w*$/.test(type) && !SCALAR.test(type) && !bodyType) {
      bodyType = type;
      bodyParam = name;
    } else fields.push(name);
  }
  return { fields, params, ...(bodyType ? { bodyType, bodyParam } : {}) };
}

/** `input.table_id` read in the resolver: fields of the input object, also when its class is generated. */
function inputReads(text: string, span: { start: number; end: number }, param: string | undefined): string[] {
  if (!param) return [];
  const body = sliceLines(text, span.start + 1, span.end);
  return [...body.matchAll(new RegExp(`\\b${param}\\.(\\w+)\\b(?!\\s*\\()`, 'g'))].map((m) => m[1] ?? '');
}

/** Methods of a strawberry type: `@strawberry.mutation` anywhere, or `@strawberry.field` on the Mutation root type. */
function strawberryResolvers(text: string): Array<{ line: number; options: string }> {
  const out = matchesWithLines(text, /^[ \t]*@strawberry\.mutation\b(?:\(([^)]*)\))?/gm).map(({ match, line }) => ({ line, options: match[1] ?? '' }));
  for (const { line } of matchesWithLines(text, /^@strawberry\.type\b[^\n]*\n(?:@[^\n]*\n)*class \w*Mutation\w*\b/gm)) {
    const cls = nextLineMatching(text, line, /^class \w/, 6);
    if (!cls) continue;
    const end = indentBlockEnd(text, cls.line);
    for (const field of matchesWithLines(sliceLines(text, cls.line, end), /^[ \t]+@strawberry\.field\b(?:\(([^)]*)\))?/gm)) {
      out.push({ line: cls.line + field.line - 1, options: field.match[1] ?? '' });
    }
  }
  return out;
}

function strawberryMutations(relPath: string, text: string, framework: Framework, out: PythonGraphql): void {
  for (const { line, options } of strawberryResolvers(text)) {
    const def = nextLineMatching(text, line, /^[ \t]*(?:async\s+)?def (\w+)\(/, 6);
    if (!def) continue;
    const fnName = def.match[1] ?? '';
    const operation = /\bname\s*=\s*["'](\w+)["']/.exec(options)?.[1] ?? schemaName(fnName);
    const { fields, bodyType, bodyParam } = signatureArguments(text, def.line);
    const span = defSpan(text, def.line);
    out.endpoints.push(finding(relPath, { line, handler: fnName, operation, fields: [...fields, ...inputReads(text, span, bodyParam)], ...(bodyType ? { bodyType } : {}), span, framework }));
  }
  // `create_order: Order = strawberry.mutation(resolver=create_order)`
  for (const { match, line } of matchesWithLines(text, /^[ \t]+(\w+)\s*:\s*[^=\n]+=\s*strawberry\.mutation\(\s*resolver\s*=\s*(\w+)/gm)) {
    const fnName = match[2] ?? '';
    const def = matchesWithLines(text, new RegExp(`^[ \\t]*(?:async\\s+)?def ${fnName}\\(`, 'm'))[0];
    const args: { fields: string[]; bodyType?: string } = def ? signatureArguments(text, def.line) : { fields: [] };
    out.endpoints.push(finding(relPath, {
      line, handler: fnName, operation: schemaName(match[1] ?? ''), fields: args.fields, ...(args.bodyType ? { bodyType: args.bodyType } : {}),
      span: def ? defSpan(text, def.line) : { start: line, end: line }, framework,
    }));
  }
  for (const { line } of matchesWithLines(text, /^@strawberry\.input\b/gm)) {
    const cls = nextLineMatching(text, line, /^class (\w+)/, 4);
    if (!cls) continue;
    const body = sliceLines(text, cls.line + 1, indentBlockEnd(text, cls.line));
    const fields = [...body.matchAll(/^[ \t]+(\w+)\s*:/gm)].map((m) => m[1] ?? '').filter(Boolean);
    if (fields.length > 0) out.shapes.set(cls.match[1] ?? '', fields);
  }
}

/** Ariadne: `mutation = MutationType()` then `@mutation.field("createOrder")` or `mutation.set_field("createOrder", fn)`. */
function ariadneMutations(relPath: string, text: string, framework: Framework, out: PythonGraphql): void {
  const holders = new Set(matchesWithLines(text, /^(\w+)\s*=\s*(?:MutationType\(\)|ObjectType\(\s*["']Mutation["']\s*\))/gm).map((m) => m.match[1] ?? ''));
  if (holders.size === 0) return;
  const add = (line: number, operation: string, defLine: number | undefined, fnName: string): void => {
    const sig = defLine ? signatureArguments(text, defLine) : { fields: [] as string[], params: [] as string[] };
    const span = defLine ? defSpan(text, defLine) : { start: line, end: line };
    // `input["customerId"]` / `input.get("customerId")`: an input dict read key by key.
    const body = sliceLines(text, span.start, span.end);
    const fields = sig.fields.flatMap((p) => {
      const keys = [...body.matchAll(new RegExp(`\\b${p}(?:\\[["'](\\w+)["']\\]|\\.get\\(\\s*["'](\\w+)["'])`, 'g'))].map((m) => m[1] ?? m[2] ?? '');
      return keys.length > 0 ? keys : [p];
    });
    out.endpoints.push(finding(relPath, { line, handler: fnName, operation, fields, span, framework }));
  };
  for (const { match, line } of matchesWithLines(text, /^@(\w+)\.field\(\s*["'](\w+)["']\s*\)/gm)) {
    if (!holders.has(match[1] ?? '')) continue;
    const def = nextLineMatching(text, line, /^(?:async\s+)?def (\w+)\(/, 6);
    add(line, match[2] ?? '', def?.line, def?.match[1] ?? match[2] ?? '');
  }
  for (const { match, line } of matchesWithLines(text, /^(\w+)\.set_field\(\s*["'](\w+)["']\s*,\s*(\w+)/gm)) {
    if (!holders.has(match[1] ?? '')) continue;
    const def = matchesWithLines(text, new RegExp(`^(?:async\\s+)?def ${match[3] ?? ''}\\(`, 'm'))[0];
    add(line, match[2] ?? '', def?.line, match[3] ?? '');
  }
}

/** Where the server answers: each becomes a route-graph node below the router or urls it hangs on. */
function servers(relPath: string, text: string, out: PythonGraphql): void {
  const framework = frameworkOf(text);
  const add = (line: number, parent: string, prefix: string): void => {
    const location = formatLocation(relPath, line);
    const node = `graphql:endpoint@${location}`;
    out.facts.endpoints.push({ node, location, ...(framework === 'other' ? {} : { framework }) });
    out.mounts.push({ parent, child: node, prefix, location });
  };
  // Django urls: path("graphql/", csrf_exempt(GraphQLView.as_view(...)))
  for (const { match, line } of matchesWithLines(text, /\b(?:re_)?path\(\s*r?["']([^"']*)["']\s*,[^\n]*GraphQLView\b/g)) {
    add(line, `${relPath}#@urls`, (match[1] ?? '').replace(/^\^|\$$/g, ''));
  }
  // Flask: app.add_url_rule("/graphql", view_func=GraphQLView.as_view(...))
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(\w+)\.add_url_rule\(\s*["']([^"']*)["'][^\n]*GraphQLView\b/gm)) {
    add(line, `${relPath}#${match[1] ?? ''}`, match[2] ?? '');
  }
  // strawberry FastAPI: graphql_app = GraphQLRouter(schema, path="/") — mounted by include_router(graphql_app, prefix=...).
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(\w+)\s*=\s*GraphQLRouter\(([^)\n]*)/gm)) {
    add(line, `${relPath}#${match[1] ?? ''}`, /\bpath\s*=\s*["']([^"']*)["']/.exec(match[2] ?? '')?.[1] ?? '');
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(\w+)\.include_router\(\s*GraphQLRouter\([^\n]*?prefix\s*=\s*["']([^"']*)["']/gm)) {
    add(line, `${relPath}#${match[1] ?? ''}`, match[2] ?? '');
  }
  // ASGI (ariadne, strawberry.asgi): app.mount("/graphql", GraphQL(schema)) / app.add_route("/graphql", GraphQL(schema))
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(\w+)\.(?:mount|add_route|add_websocket_route)\(\s*["']([^"']*)["']\s*,\s*(?:\w+\.)*GraphQL(?:App)?\(/gm)) {
    add(line, `${relPath}#${match[1] ?? ''}`, match[2] ?? '');
  }
}

/**
 * The GraphQL side of one Python file.
 * @example scanPythonGraphql('shop/schema.py', text).endpoints.map((e) => e.operation) // ['mutation createOrder', ...]
 */
export function scanPythonGraphql(relPath: string, text: string): PythonGraphql {
  const out: PythonGraphql = { endpoints: [], shapes: new Map(), facts: emptyGraphqlFacts(), mounts: [] };
  // Forms, models and serializers: any Django file may declare what a form or serializer mutation reads.
  const classes = /\b(?:django|rest_framework|graphene)\b/.test(text) && !/(^|\/)migrations\//.test(relPath) ? djangoClasses(relPath, text) : [];
  out.facts.djangoClasses.push(...classes);
  if (!/graphene|strawberry|ariadne|GraphQL/.test(text)) return out;
  const framework = frameworkOf(text);
  grapheneMutations(relPath, text, framework, classes, out);
  strawberryMutations(relPath, text, framework, out);
  ariadneMutations(relPath, text, framework, out);
  servers(relPath, text, out);
  return out;
}

const TRANSPORT = /\bgraphql(?:_sync)?\(\s*schema\b|\bschema\.execute(?:_sync|_async)?\(/;

/**
 * Route handlers that execute GraphQL themselves (`graphql_sync(schema, data)` in a Flask view) are
 * the transport of the schema's operations, not actions of their own: they are taken out of
 * `endpoints` and become the server's path instead.
 * @example withoutTransports(endpoints, text, graphql).length // endpoints minus the /graphql view
 */
export function withoutTransports(endpoints: readonly EndpointFinding[], text: string, out: PythonGraphql): EndpointFinding[] {
  return endpoints.filter((e) => {
    if (!e.span || !TRANSPORT.test(sliceLines(text, e.span.start, e.span.end))) return true;
    const node = `graphql:endpoint@${e.location}`;
    out.facts.endpoints.push({ node, location: e.location });
    out.mounts.push({ parent: e.scope ?? 'graphql:root', child: node, prefix: e.route, location: e.location });
    return false;
  });
}

/**
 * A file's route facts with its GraphQL servers and `Mutation` fields added.
 * @example pythonGraphqlFacts(pythonRouteFacts(relPath, text), scanPythonGraphql(relPath, text)).graphql
 */
export function pythonGraphqlFacts(facts: RouteFacts, graphql: PythonGraphql): RouteFacts {
  const { endpoints, registrations, djangoClasses: classes, formInputs } = graphql.facts;
  if (endpoints.length + registrations.length + classes.length + formInputs.length === 0) return facts;
  return { ...facts, mounts: [...facts.mounts, ...graphql.mounts], graphql: graphql.facts };
}
