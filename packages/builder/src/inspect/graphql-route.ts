/**
 * GraphQL operations on the route graph. Every mutation of a schema is served by one HTTP endpoint
 * (`POST /graphql`), so a mutation finding keeps that endpoint's path as its route and names itself
 * in `operation` (`mutation createOrder`). Scanners report where the endpoint is served (a mount
 * node, so an Express/FastAPI/Django prefix above it applies) and, for graphene, which class each
 * `Mutation` field exposes; this file gives every operation its path and its schema name.
 */
import { djangoIndex, mutationInputFields, type DjangoIndex, type MutationInput } from './django-input-fields.js';
import type { DjangoClass } from './patterns/python-django-classes.js';
import type { EndpointFinding, Framework } from './types.js';

/** Where a GraphQL server answers: a route-graph node whose mount prefixes give the path. */
export interface GraphqlEndpointFact {
  /** Node mounted under the server's prefixes (`graphql:endpoint@src/main.ts:12`). */
  readonly node: string;
  readonly location: string;
  /** NestJS `GraphQLModule.forRoot({ useGlobalPrefix: true })`: `setGlobalPrefix` applies too. */
  readonly useGlobalPrefix?: boolean;
  /** The HTTP framework serving it, when its file shows one (schema files often import none). */
  readonly framework?: Framework;
}

/** `create_order = CreateOrder.Field()` on a graphene `Mutation` type: the field exposes the class. */
export interface GraphqlRegistration {
  readonly type: string;
  readonly field: string;
  readonly location: string;
}

/** A graphene-django form or serializer mutation: its input is that class's fields. */
export interface GraphqlFormInput extends MutationInput {
  /** The mutation class (`RegisterMutation`), as registrations name it. */
  readonly type: string;
  readonly location: string;
}

export interface GraphqlFacts {
  readonly endpoints: GraphqlEndpointFact[];
  readonly registrations: GraphqlRegistration[];
  /** Django forms, models and serializers of Python files, for form and serializer mutations. */
  readonly djangoClasses: DjangoClass[];
  readonly formInputs: GraphqlFormInput[];
}

/** Scope of a graphene mutation class, exposed only where a `Mutation` type registers it. */
export const GRAPHENE_SCOPE = 'graphene:';

/** The path GraphQL servers use when none is configured (Apollo 2/3, NestJS, Yoga, Mercurius). */
export const DEFAULT_GRAPHQL_PATH = '/graphql';

/**
 * A fresh accumulator.
 * @example const facts = emptyGraphqlFacts(); facts.endpoints.push({ node: 'graphql:endpoint@a.ts:3', location: 'a.ts:3' });
 */
export function emptyGraphqlFacts(): GraphqlFacts {
  return { endpoints: [], registrations: [], djangoClasses: [], formInputs: [] };
}

/**
 * A schema field name as clients call it: graphene and strawberry camel-case Python names.
 * @example schemaName('create_order') // 'createOrder'
 */
export function schemaName(pythonName: string): string {
  return pythonName.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function dirOf(location: string): string {
  const file = location.replace(/:\d+$/, '');
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
}

/** Length of the common leading directories of two files: the nearest server serves the schema. */
function closeness(a: string, b: string): number {
  const left = dirOf(a).split('/');
  const right = dirOf(b).split('/');
  let n = 0;
  while (n < left.length && n < right.length && left[n] === right[n]) n += 1;
  return n;
}

export interface GraphqlRouting {
  readonly facts: GraphqlFacts;
  /** Full paths of a route-graph node (its mounts' prefixes), from the route graph. */
  readonly prefixesOf: (node: string) => readonly string[];
  /** NestJS's `setGlobalPrefix`, for servers configured with `useGlobalPrefix`. */
  readonly nestGlobalPrefix?: string;
  readonly join: (...parts: string[]) => string;
}

const indexes = new WeakMap<GraphqlFacts, DjangoIndex>();

/**
 * A graphene form or serializer mutation with the fields of its form or serializer; the fields the
 * class declares itself (`class Input`) stay. Unresolved: said, and the whole input is the fingerprint.
 */
function withFormInput(endpoint: EndpointFinding, type: string, facts: GraphqlFacts, notes: string[]): EndpointFinding {
  const input = facts.formInputs.find((f) => f.type === type);
  if (!input) return endpoint;
  let index = indexes.get(facts);
  if (!index) {
    index = djangoIndex(facts.djangoClasses);
    indexes.set(facts, index);
  }
  const found = mutationInputFields(input, index);
  if ('undetermined' in found) {
    notes.push(`${input.location}: graphene mutation ${type} takes its input from ${input.source} ${input.ref.name}, whose fields the inspector could not state (${found.undetermined}); the whole input is the fingerprint.`);
    return endpoint;
  }
  return { ...endpoint, bodyFields: [...new Set([...endpoint.bodyFields, ...found.fields])] };
}

/**
 * The finished findings of one GraphQL operation: its route is the endpoint's full path, a
 * graphene class appears once per `Mutation` field that exposes it (and not at all when none does).
 * @example graphqlOperationRoutes(mutation, routing, notes)[0].route // '/api/graphql'
 */
export function graphqlOperationRoutes(endpoint: EndpointFinding, routing: GraphqlRouting, notes: string[]): EndpointFinding[] {
  const { scope, ...found } = endpoint;
  let rest = found;
  let operations: string[] = [endpoint.operation ?? ''];
  if (scope?.startsWith(GRAPHENE_SCOPE)) {
    const type = scope.slice(GRAPHENE_SCOPE.length);
    const fields = routing.facts.registrations.filter((r) => r.type === type).map((r) => r.field);
    if (fields.length === 0) {
      notes.push(`${endpoint.location}: graphene mutation ${type} is not a field of any Mutation type the inspector understood; it is left out.`);
      return [];
    }
    rest = withFormInput(found, type, routing.facts, notes);
    operations = [...new Set(fields)].map((f) => `mutation ${schemaName(f)}`);
  }
  // A name GraphQL itself would refuse (`'create-order': …` in a map) is no operation: noted, never guessed.
  const invalid = operations.filter((o) => !/^mutation [_A-Za-z]\w*$/.test(o));
  if (invalid.length > 0) {
    notes.push(`${endpoint.location}: ${invalid.join(', ')} is not a valid GraphQL field name; it is left out.`);
    operations = operations.filter((o) => !invalid.includes(o));
    if (operations.length === 0) return [];
  }
  const servers = [...routing.facts.endpoints].sort((a, b) => closeness(b.location, endpoint.location) - closeness(a.location, endpoint.location));
  const server = servers[0];
  let route = DEFAULT_GRAPHQL_PATH;
  if (server) {
    const path = routing.prefixesOf(server.node)[0] || '/';
    route = server.useGlobalPrefix && routing.nestGlobalPrefix ? routing.join(routing.nestGlobalPrefix, path) : path;
  } else if (!notes.some((n) => n.startsWith('GraphQL endpoint'))) {
    notes.push(`GraphQL endpoint: no server configuration the inspector understood (Apollo, NestJS GraphQLModule, Yoga, Mercurius, graphene/strawberry views); mutations are shown on the default ${DEFAULT_GRAPHQL_PATH}.`);
  }
  const framework = rest.framework === 'other' && server?.framework ? server.framework : rest.framework;
  return operations.map((operation) => ({ ...rest, framework, route, operation }));
}

/**
 * `Mutation` fields whose class is not in the repository (a library's, e.g. graphql_jwt's
 * `ObtainJSONWebToken.Field()`): still entry points of the API, shown at the registration with no
 * fields (the whole input is then the fingerprint).
 * @example registeredElsewhere(endpoints, routing, notes).map((e) => e.operation) // ['mutation tokenAuth']
 */
export function registeredElsewhere(endpoints: readonly EndpointFinding[], routing: GraphqlRouting, notes: string[]): EndpointFinding[] {
  const graphene = endpoints.filter((e) => e.scope?.startsWith(GRAPHENE_SCOPE));
  const known = new Set(graphene.map((e) => e.scope?.slice(GRAPHENE_SCOPE.length)));
  const framework: Framework = graphene[0]?.framework ?? 'other';
  return routing.facts.registrations.filter((r) => !known.has(r.type)).flatMap((r) => graphqlOperationRoutes(
    { method: 'POST', route: '', framework, location: r.location, handler: r.type, bodyFields: [], webhook: false, operation: `mutation ${schemaName(r.field)}` },
    routing, notes,
  ));
}
