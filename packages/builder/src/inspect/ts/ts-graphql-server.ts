/**
 * Where a TS/JS GraphQL server answers, as route-graph facts: NestJS `GraphQLModule.forRoot({ path })`,
 * Apollo 2/3 `applyMiddleware({ app, path })`, Apollo 4 `app.use('/graphql', expressMiddleware(server))`
 * and `startStandaloneServer` (every path), Yoga `createYoga({ graphqlEndpoint })`, Mercurius
 * `register(mercurius, { path })`, express-graphql/graphql-http, and a Next.js API route serving
 * Apollo or Yoga. Each is a node mounted where the server is, so the prefixes above it apply.
 */
import ts from 'typescript';
import { DEFAULT_GRAPHQL_PATH, emptyGraphqlFacts, type GraphqlFacts } from '../graphql-route.js';
import type { MountFact } from '../route-graph.js';
import type { Framework } from '../types.js';
import { nextFileRoute } from './ts-next-pages.js';
import { nodeOf } from './ts-route-facts.js';
import { chainText, literalText, nodeLocation, propertyValue, unwrap, type ParsedSource } from './ts-source.js';

/** Calls that build request middleware answering GraphQL. */
const MIDDLEWARE = /^(expressMiddleware|graphqlHTTP|graphqlExpress|createHandler|koaMiddleware|graphqlServer|fastifyApolloHandler)$/;
const NEXT_SERVER = /^(@apollo\/server|apollo-server-micro|@as-integrations\/next|graphql-yoga|graphql-http|@graphql-yoga\/\w+)/;
const ROOT = 'graphql:root';

export interface GraphqlServers {
  readonly facts: GraphqlFacts;
  readonly mounts: MountFact[];
  /** Route calls that are the GraphQL transport (`app.post('/graphql', handler)`), not endpoints of their own. */
  readonly transports: ReadonlySet<string>;
  /** True when the file is a Next.js route serving GraphQL: its POST handler is the transport. */
  readonly nextTransport: boolean;
}

/** The first `name: 'literal'` below a node, not inside subscription settings (whose `path` is another endpoint). */
function optionText(node: ts.Node, name: string): string | undefined {
  let found: string | undefined;
  const visit = (child: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isPropertyAssignment(child) && ts.isIdentifier(child.name)) {
      if (/^(subscriptions|installSubscriptionHandlers|cors)$/.test(child.name.text)) return;
      if (child.name.text === name && literalText(child.initializer) !== undefined) {
        found = literalText(child.initializer);
        return;
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

function optionTrue(node: ts.Node, name: string): boolean {
  let found = false;
  const visit = (child: ts.Node): void => {
    if (ts.isPropertyAssignment(child) && ts.isIdentifier(child.name) && child.name.text === name && child.initializer.kind === ts.SyntaxKind.TrueKeyword) found = true;
    if (!found) ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

function lastName(callee: string): string {
  return callee.slice(callee.lastIndexOf('.') + 1);
}

/**
 * The GraphQL servers one file sets up.
 * @example graphqlServers(parseSource('src/app.ts', "app.use('/api/graphql', expressMiddleware(server))")).mounts[0].prefix // '/api/graphql'
 */
export function graphqlServers(src: ParsedSource, framework?: Framework): GraphqlServers {
  const facts = emptyGraphqlFacts();
  const mounts: MountFact[] = [];
  const transports = new Set<string>();
  const yogaVars = new Set<string>();
  const fileRoute = nextFileRoute(src.relPath);
  const add = (at: ts.Node, parent: string, prefix: string, useGlobalPrefix = false): void => {
    const location = nodeLocation(src, at);
    const node = `graphql:endpoint@${location}`;
    facts.endpoints.push({ node, location, ...(useGlobalPrefix ? { useGlobalPrefix } : {}), ...(framework ? { framework } : {}) });
    mounts.push({ parent, child: node, prefix, location });
  };
  const servesGraphql = (arg: ts.Expression): boolean => {
    const inner = unwrap(arg);
    if (ts.isIdentifier(inner)) return yogaVars.has(inner.text);
    return ts.isCallExpression(inner) && MIDDLEWARE.test(lastName(chainText(inner.expression)));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = chainText(node.expression);
      const last = lastName(callee);
      const args = node.arguments;
      if (/GraphQLModule\.forRoot(Async)?$/.test(callee)) {
        add(node, ROOT, optionText(node, 'path') ?? DEFAULT_GRAPHQL_PATH, optionTrue(node, 'useGlobalPrefix'));
      } else if (last === 'applyMiddleware' && args[0] && ts.isObjectLiteralExpression(unwrap(args[0]))) {
        const options = unwrap(args[0]) as ts.ObjectLiteralExpression;
        const app = propertyValue(options, 'app');
        add(node, app ? nodeOf(src, app) : ROOT, literalText(propertyValue(options, 'path')) ?? DEFAULT_GRAPHQL_PATH);
      } else if (last === 'startStandaloneServer') {
        // Apollo 4's standalone server answers GraphQL on every path; `/` is what it prints.
        add(node, ROOT, '/');
      } else if (last === 'createYoga') {
        if (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) yogaVars.add(node.parent.name.text);
        add(node, ROOT, fileRoute ?? optionText(node, 'graphqlEndpoint') ?? DEFAULT_GRAPHQL_PATH);
      } else if (last === 'register' && args[0] && ts.isIdentifier(unwrap(args[0])) && src.bindings.get((unwrap(args[0]) as ts.Identifier).text) === 'mercurius') {
        add(node, ts.isPropertyAccessExpression(node.expression) ? nodeOf(src, node.expression.expression) : ROOT, (args[1] && optionText(args[1], 'path')) ?? DEFAULT_GRAPHQL_PATH);
      } else if (ts.isPropertyAccessExpression(node.expression) && /^(use|post|all)$/.test(last) && args.some((a) => servesGraphql(a))) {
        const path = literalText(args[0]);
        const yogaOnly = args.every((a) => !ts.isCallExpression(unwrap(a)));
        // `app.use(yoga.graphqlEndpoint, yoga)`: the path is the one createYoga was given.
        if (path !== undefined || !yogaOnly) add(node.expression.name, nodeOf(src, node.expression.expression), path ?? '');
        if (last === 'post') transports.add(nodeLocation(src, node.expression.name));
      }
    }
    if (ts.isNewExpression(node) && chainText(node.expression) === 'ApolloServer' && src.bindings.get('ApolloServer') === 'apollo-server') {
      // apollo-server 2/3 without an HTTP framework: `server.listen()` answers on `/`.
      add(node, ROOT, '/');
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  const nextTransport = fileRoute !== undefined && [...src.modules].some((m) => NEXT_SERVER.test(m));
  if (nextTransport && facts.endpoints.length === 0) add(src.sf.statements[0] ?? src.sf, ROOT, fileRoute);
  return { facts, mounts, transports, nextTransport };
}
