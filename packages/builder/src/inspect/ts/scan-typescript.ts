/**
 * The TS/JS scanner: one parse per file through the TypeScript compiler API, then routes, NestJS
 * decorators, Next.js handlers and side effects. Loaded lazily by the inspector so that a missing
 * `typescript` package degrades to "TS/JS not analysed" instead of a crash.
 */
import ts from 'typescript';
import type { ModulePaths } from '../module-paths.js';
import { emptyFindings, type Broker, type Framework, type ScanResult } from '../types.js';
import { scanEffects } from './ts-effects.js';
import { declaredShapes, scanNest } from './ts-nest.js';
import { fileFramework, nextRouteEndpoints, routeCallEndpoints } from './ts-routes.js';
import { graphqlMutations } from './ts-graphql.js';
import { builderMutations, graphqlInputShapes } from './ts-graphql-builders.js';
import { graphqlServers } from './ts-graphql-server.js';
import { nextPagesEndpoints } from './ts-next-pages.js';
import { nextServerActions } from './ts-next-server-actions.js';
import { collectRouteFacts, nodeOf } from './ts-route-facts.js';
import { routingControllers } from './ts-routing-controllers.js';
import { qualifiedShapes } from './ts-shape-imports.js';
import { parseSource } from './ts-source.js';

// Loaded with this module (the inspector imports it lazily): handlers another module exports.
export { resolveImportedHandlers } from './ts-imported-handlers.js';


/** Project-level hints that a single file cannot know. */
export interface ProjectHints {
  readonly framework?: Framework;
  readonly broker?: Broker;
  /** The project's path mappings (tsconfig `paths`, subpath imports); relative imports only without. */
  readonly modulePaths?: ModulePaths;
}

/** Test files exercise routes (`request(app).post(...)`) rather than declare them. */
const TEST_FILE = /(^|\/)(test|tests|__tests__|spec|e2e)\/|\.(test|spec|e2e-spec)\.[cm]?[jt]sx?$/;

/**
 * Scans one TS/JS file.
 * @example
 * scanTypeScript('src/app.ts', "import express from 'express'; const app = express(); app.post('/pay', (req, res) => {})", {})
 *   .findings.endpoints[0]; // { method: 'POST', route: '/pay', framework: 'express', location: 'src/app.ts:1', ... }
 */
export function scanTypeScript(relPath: string, text: string, hints: ProjectHints): ScanResult {
  const src = parseSource(relPath, text, hints.modulePaths);
  const findings = emptyFindings();
  const declared = declaredShapes(src);
  // Nexus/Pothos input types: the body shape of a mutation argument typed with one (in any file).
  for (const [name, fields] of graphqlInputShapes(src)) if (!declared.has(name)) declared.set(name, fields);
  // Also by the file declaring them, bases through the file's imports: two modules may declare one name.
  const shapes = qualifiedShapes(src, declared);
  if (TEST_FILE.test(relPath)) return { findings, shapes };

  const framework = fileFramework(src, hints.framework);
  const { facts, serverVars } = collectRouteFacts(src);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const found = routeCallEndpoints(src, node, framework, serverVars);
      if (found.length > 0 && ts.isPropertyAccessExpression(node.expression)) {
        const scope = nodeOf(src, routeReceiver(node.expression.expression));
        findings.endpoints.push(...found.map((e) => ({ ...e, scope })));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  // A route that carries GraphQL is the transport of the operations below, not an action of its own.
  const graphql = graphqlServers(src, src.modules.has('@nestjs/graphql') ? 'nestjs' : fileFramework(src, undefined));
  findings.endpoints = findings.endpoints.filter((e) => !graphql.transports.has(e.location));
  if (!graphql.nextTransport) findings.endpoints.push(...nextRouteEndpoints(src), ...nextPagesEndpoints(src));
  findings.endpoints.push(...nextServerActions(src));
  const graphqlFramework = src.modules.has('@nestjs/graphql') ? 'nestjs' : framework ?? hints.framework ?? 'other';
  findings.endpoints.push(...graphqlMutations(src, graphqlFramework), ...builderMutations(src, graphqlFramework));
  facts.mounts.push(...graphql.mounts);

  findings.endpoints.push(...routingControllers(src, hints.framework, facts));
  const nest = scanNest(src, hints.broker ?? 'other');
  findings.endpoints.push(...nest.endpoints);
  findings.schedulers.push(...nest.schedulers);
  findings.consumers.push(...nest.consumers);

  const effects = scanEffects(src);
  findings.paymentCalls.push(...effects.paymentCalls);
  findings.consumers.push(...effects.consumers);
  findings.schedulers.push(...effects.schedulers);
  findings.databases.push(...effects.databases);
  findings.brokers.push(...effects.brokers);
  return { findings, shapes, routeFacts: graphql.facts.endpoints.length > 0 ? { ...facts, graphql: graphql.facts } : facts };
}

/** The receiver a route hangs on; for `router.route('/x').post(h)` that is `router`, not the chain. */
function routeReceiver(receiver: ts.Expression): ts.Expression {
  let current = receiver;
  while (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression)) current = current.expression.expression;
  return current;
}
