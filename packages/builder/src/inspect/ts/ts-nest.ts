/**
 * NestJS through its decorators: `@Controller` classes with `@Post/@Put/@Patch/@Delete` methods,
 * `@Cron`/`@Interval` jobs, and message handlers (`@EventPattern`, `@MessagePattern`,
 * `@RabbitSubscribe`, `@Processor` for BullMQ).
 */
import ts from 'typescript';
import type { Broker, ConsumerFinding, EndpointFinding, SchedulerFinding } from '../types.js';
import type { SpelledPath } from '../route-graph.js';
import { NEST_ROUTE_DECORATORS, nestRoutes } from './ts-nest-paths.js';
import { requestBodyKeys, schemaKeys } from './ts-body-fields.js';
import { heritageFields } from './ts-nest-shapes.js';
import { endpointFinding } from './ts-routes.js';
import { decoratorsOf, literalText, nodeLocation, propertyValue, type ParsedSource } from './ts-source.js';

export interface NestFindings {
  endpoints: EndpointFinding[];
  schedulers: SchedulerFinding[];
  consumers: ConsumerFinding[];
}

/**
 * The route as this file alone spells it (the first path of an array), for the finding until the
 * route graph gives the full paths (ts-nest-graph.ts); an imported constant is shown as written,
 * between backticks, so that it can never pass for a path.
 */
function localRoute(controllerPath: SpelledPath | undefined, methodPath: SpelledPath | undefined): string {
  const text = (path: SpelledPath | undefined): string => (path ?? []).map((part) => (typeof part === 'string' ? part : `\`${part.text}\``)).join('');
  return `/${[text(controllerPath), text(methodPath)].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

/**
 * `@Body() dto: CreatePaymentDto` → bound name `dto`, type `CreatePaymentDto`; `@Body('amount')` →
 * field; `@Body() { couponId, priceId }: Dto` → the fields destructured (the handler reads those).
 */
function bodyParameters(method: ts.MethodDeclaration): { boundNames: string[]; bodyType?: string; fields: string[] } {
  const boundNames: string[] = [];
  const fields: string[] = [];
  let bodyType: string | undefined;
  for (const parameter of method.parameters) {
    const body = decoratorsOf(parameter).find((d) => d.name === 'Body');
    if (!body) continue;
    const field = literalText(body.args[0]);
    if (field) {
      fields.push(field);
      continue;
    }
    const typeName = parameter.type && ts.isTypeReferenceNode(parameter.type) && ts.isIdentifier(parameter.type.typeName) ? parameter.type.typeName.text : undefined;
    if (ts.isObjectBindingPattern(parameter.name)) {
      // A `...rest` element takes the fields not named: the declared type says which they are.
      const rest = parameter.name.elements.some((element) => element.dotDotDotToken);
      for (const element of parameter.name.elements) {
        const key = element.propertyName ?? element.name;
        if (!element.dotDotDotToken && (ts.isIdentifier(key) || ts.isStringLiteral(key))) fields.push(key.text);
      }
      if (rest && typeName) bodyType = typeName;
      continue;
    }
    if (!ts.isIdentifier(parameter.name)) continue;
    boundNames.push(parameter.name.text);
    if (typeName) bodyType = typeName;
  }
  return { boundNames, fields, ...(bodyType ? { bodyType } : {}) };
}

function channelOf(args: readonly ts.Expression[]): string | undefined {
  const first = args[0];
  return literalText(first) ?? literalText(propertyValue(first, 'queue')) ?? literalText(propertyValue(first, 'name'))
    ?? literalText(propertyValue(first, 'routingKey'));
}

function scanClass(src: ParsedSource, node: ts.ClassDeclaration, broker: Broker, out: NestFindings): void {
  const classDecorators = decoratorsOf(node);
  const controller = classDecorators.find((d) => d.name === 'Controller');
  const processor = classDecorators.find((d) => d.name === 'Processor');
  if (processor) {
    out.consumers.push({ broker: 'bullmq', channel: channelOf(processor.args), location: nodeLocation(src, processor.node), evidence: '@Processor' });
  }
  // One endpoint per route decorator; its scope is the controller class, which `@Module` and
  // `RouterModule` mounts reach. Paths, versions and prefixes are put together by the route graph.
  for (const { decorator, member, method, fact } of controller ? nestRoutes(src, node) : []) {
    const { boundNames, bodyType, fields } = bodyParameters(member);
    const route = localRoute(fact.controllerPaths[0], fact.methodPaths[0]);
    const name = ts.isIdentifier(member.name) ? member.name.text : undefined;
    const finding = endpointFinding(src, { method, route, framework: 'nestjs', at: decorator.node, handler: member, name, boundNames, bodyType });
    out.endpoints.push({ ...finding, bodyFields: [...new Set([...fields, ...finding.bodyFields])], ...(node.name ? { scope: `${src.relPath}#${node.name.text}` } : {}) });
  }
  for (const member of node.members) {
    if (!ts.isMethodDeclaration(member)) continue;
    for (const decorator of decoratorsOf(member)) {
      if (NEST_ROUTE_DECORATORS[decorator.name] && controller) continue;
      if (decorator.name === 'Cron' || decorator.name === 'Interval') {
        const schedule = literalText(decorator.args[0]) ?? decorator.args[decorator.args.length - 1]?.getText(src.sf);
        const handler = ts.isIdentifier(member.name) ? member.name.text : undefined;
        out.schedulers.push({ mechanism: `@${decorator.name}`, ...(schedule ? { schedule } : {}), location: nodeLocation(src, decorator.node), ...(handler ? { handler } : {}) });
      } else if (decorator.name === 'EventPattern' || decorator.name === 'MessagePattern') {
        out.consumers.push({ broker, channel: channelOf(decorator.args), location: nodeLocation(src, decorator.node), evidence: `@${decorator.name}` });
      } else if (decorator.name === 'RabbitSubscribe' || decorator.name === 'RabbitRPC') {
        out.consumers.push({ broker: 'rabbitmq', channel: channelOf(decorator.args), location: nodeLocation(src, decorator.node), evidence: `@${decorator.name}` });
      }
    }
  }
}

/**
 * Everything NestJS declares by decorator in one file. `broker` is the project's broker, used for
 * transport-agnostic `@EventPattern` handlers.
 * @example scanNest(src, 'rabbitmq').endpoints // [{ method: 'POST', route: '/payments', framework: 'nestjs', ... }]
 */
export function scanNest(src: ParsedSource, broker: Broker): NestFindings {
  const out: NestFindings = { endpoints: [], schedulers: [], consumers: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) scanClass(src, node, broker, out);
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}

/**
 * Property names of the classes and interfaces a file declares, to resolve DTO bodies.
 * @example declaredShapes(parseSource('dto.ts', 'class PayDto { amount!: number }')) // Map { 'PayDto' => ['amount'] }
 */
export function declaredShapes(src: ParsedSource): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name) {
      const names = (node.members as ts.NodeArray<ts.ClassElement | ts.TypeElement>).flatMap((member) =>
        (ts.isPropertyDeclaration(member) || ts.isPropertySignature(member)) && member.name && ts.isIdentifier(member.name) ? [member.name.text] : []);
      // Inherited fields (`extends Base`, `PartialType(X)`, `OmitType(X, [...])`) by name: the base may be in another file.
      const all = [...heritageFields(node), ...names];
      if (all.length > 0) shapes.set(node.name.text, all);
    }
    // Validation schemas: `const Order = z.object({ … })`, `Type.Object({ … })`, `Joi.object().keys({ … })`,
    // `yup.object({ … })`, and request schemas holding one under `body` (`const register = { body: Joi.object()… }`).
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const keys = schemaKeys(node.initializer).length > 0 ? schemaKeys(node.initializer) : requestBodyKeys(node.initializer);
      if (keys.length > 0) shapes.set(node.name.text, keys);
    }
    if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) {
      const names = node.type.members.flatMap((member) => (ts.isPropertySignature(member) && ts.isIdentifier(member.name) ? [member.name.text] : []));
      if (names.length > 0) shapes.set(node.name.text, names);
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return shapes;
}

