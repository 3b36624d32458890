/**
 * NestJS configuration that a global prefix reads: `configService.get('app.apiPrefix')` (or
 * `getOrThrow`), looked up in the `registerAs('app', () => ({ apiPrefix: … }))` that declares it,
 * and an environment variable with a literal default (`process.env.API_PREFIX || 'api'`). Such a
 * default is what the app serves unless its environment sets the variable, so the route graph
 * shows it and says so in a note rather than dropping the prefix.
 *
 * Declared values become route-graph constants under a node of their own (`nest-config:app`), so
 * a read resolves through the same `spelledText` as any constant of another module.
 */
import ts from 'typescript';
import type { SpelledPath } from '../route-graph.js';
import type { NestGlobalPrefix } from './ts-nest-graph.js';
import { spellPath } from './ts-spelled-paths.js';
import { unwrap, type ParsedSource } from './ts-source.js';
import { staticString } from './ts-values.js';

/** The route-graph node a `registerAs` namespace's values live under. */
const CONFIG_NODE = 'nest-config:';
/** Beside a value that came from an environment default: the variable's name, for the note. */
export const ENV_SUFFIX = '@env';
/** How deep a config object's nested properties are followed. */
const MAX_DEPTH = 4;

/** `process.env.NAME` / `process.env['NAME']` → NAME. */
function envName(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  const target = ts.isPropertyAccessExpression(inner) ? inner.expression : ts.isElementAccessExpression(inner) ? inner.expression : undefined;
  if (!target || unwrap(target).getText() !== 'process.env') return undefined;
  if (ts.isPropertyAccessExpression(inner)) return inner.name.text;
  const key = (inner as ts.ElementAccessExpression).argumentExpression;
  return ts.isStringLiteral(key) ? key.text : undefined;
}

/**
 * `process.env.NAME || 'x'` or `?? 'x'`: the variable and the literal default.
 * @example envDefault(src, parse("process.env.API_PREFIX || 'api'")) // { name: 'API_PREFIX', value: 'api' }
 */
export function envDefault(src: ParsedSource, node: ts.Expression): { name: string; value: string } | undefined {
  const inner = unwrap(node);
  if (!ts.isBinaryExpression(inner)) return undefined;
  const operator = inner.operatorToken.kind;
  if (operator !== ts.SyntaxKind.BarBarToken && operator !== ts.SyntaxKind.QuestionQuestionToken) return undefined;
  const name = envName(inner.left);
  const value = name === undefined ? undefined : staticString(src, inner.right);
  return name !== undefined && value !== undefined ? { name, value } : undefined;
}

/**
 * A `ConfigService` read with a literal dotted key (`config.get('app.apiPrefix', { infer: true })`)
 * as a reference to the value its `registerAs` namespace declares.
 * @example configRead(src, parse("configService.getOrThrow('app.apiPrefix')")) // [{ node: 'nest-config:app', path: ['apiPrefix'], … }]
 */
export function configRead(src: ParsedSource, node: ts.Expression): SpelledPath | undefined {
  const inner = unwrap(node);
  if (!ts.isCallExpression(inner) || !ts.isPropertyAccessExpression(inner.expression)) return undefined;
  if (!['get', 'getOrThrow'].includes(inner.expression.name.text)) return undefined;
  const key = staticString(src, inner.arguments[0]);
  const [namespace, ...path] = key?.split('.') ?? [];
  if (!namespace || path.length === 0) return undefined;
  return [{ node: `${CONFIG_NODE}${namespace}`, path, text: inner.getText(src.sf) }];
}

/** The object a config factory returns: `() => ({ … })` or `() => { …; return { … }; }`. */
function returnedObject(factory: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const fn = unwrap(factory);
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  if (!ts.isBlock(fn.body)) {
    const body = unwrap(fn.body);
    return ts.isObjectLiteralExpression(body) ? body : undefined;
  }
  const returned = fn.body.statements.filter(ts.isReturnStatement).at(-1)?.expression;
  const object = returned && unwrap(returned);
  return object && ts.isObjectLiteralExpression(object) ? object : undefined;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** Literal (or environment-default) values of a config object, nested objects flattened to dotted keys. */
function objectValues(src: ParsedSource, object: ts.ObjectLiteralExpression, prefix: string, depth: number, out: Array<[string, string]>): void {
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const name = propertyName(property.name);
    if (name === undefined) continue;
    const key = `${prefix}.${name}`;
    const value = unwrap(property.initializer);
    if (ts.isObjectLiteralExpression(value)) {
      if (depth < MAX_DEPTH) objectValues(src, value, key, depth + 1, out);
      continue;
    }
    const fromEnv = envDefault(src, value);
    if (fromEnv) {
      out.push([key, fromEnv.value], [`${key}${ENV_SUFFIX}`, fromEnv.name]);
      continue;
    }
    const literal = staticString(src, value);
    if (literal !== undefined) out.push([key, literal]);
  }
}

/**
 * The values every `registerAs('namespace', factory)` of a file declares, as route-graph constants.
 * @example registeredConfig(parse("export default registerAs('app', () => ({ apiPrefix: process.env.API_PREFIX || 'api' }))"))
 * // [['nest-config:app.apiPrefix', 'api'], ['nest-config:app.apiPrefix@env', 'API_PREFIX']]
 */
export function registeredConfig(src: ParsedSource): Array<[string, string]> {
  if (!src.sf.text.includes('registerAs')) return [];
  const out: Array<[string, string]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'registerAs') {
      const namespace = staticString(src, node.arguments[0]);
      const object = node.arguments[1] && returnedObject(node.arguments[1]);
      if (namespace !== undefined && object) objectValues(src, object, `${CONFIG_NODE}${namespace}`, 0, out);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}

/**
 * A `setGlobalPrefix` argument that is not a literal: an environment default, a config read or a
 * constant of another module, to be looked up once every file is known; `written` as it reads.
 * @example configuredPrefix(src, parse("config.getOrThrow('app.apiPrefix', { infer: true })")).spelled // [{ node: 'nest-config:app', … }]
 */
export function configuredPrefix(src: ParsedSource, node: ts.Expression): Pick<NestGlobalPrefix, 'spelled' | 'env' | 'written'> {
  const written = node.getText(src.sf);
  const fromEnv = envDefault(src, node);
  if (fromEnv) return { spelled: [fromEnv.value], env: fromEnv.name, written };
  const spelled = configRead(src, node) ?? spellPath(src, node);
  return spelled ? { spelled, written } : { written };
}

/**
 * The environment variable a configured value defaults from, when its `registerAs` said so.
 * @example envBehind([{ node: 'nest-config:app', path: ['apiPrefix'], text }]) // [{ node: 'nest-config:app', path: ['apiPrefix@env'], text }]
 */
export function envBehind(spelled: SpelledPath): SpelledPath | undefined {
  const [only] = spelled;
  if (spelled.length !== 1 || typeof only !== 'object' || !only.node.startsWith(CONFIG_NODE) || only.path.length === 0) return undefined;
  return [{ ...only, path: [...only.path.slice(0, -1), `${only.path.at(-1)}${ENV_SUFFIX}`] }];
}
