/**
 * What a path or prefix argument spells across files: literals, templates and `+`, same-file
 * constants and object properties, enums, route-class members, and names imported from another
 * module — kept as references (route-graph.ts `ConstantRef`) and looked up in the constants that
 * module declares (`declaredConstants`) once every file is known. Shared by NestJS decorators
 * (`@Post(routesV1.user.root)`) and Express/Hono mounts (`app.use(config.api.prefix, routes())`).
 */
import ts from 'typescript';
import type { SpelledPath } from '../route-graph.js';
import { propertyValue, unwrap, type ParsedSource } from './ts-source.js';
import { objectArgument, staticString, valueOf } from './ts-values.js';

/** How many names and properties a path is followed through (`routesV1.user.root` → `usersRoot` → `'users'`). */
const MAX_HOPS = 6;
/** At most this many constants are recorded per file: a route table is small, a generated file is not. */
const MAX_VALUES = 200;

/** A same-file `enum Name { Member = 'x' }` member's initializer. */
function enumMember(src: ParsedSource, enumName: string, member: string): ts.Expression | undefined {
  for (const statement of src.sf.statements) {
    if (ts.isEnumDeclaration(statement) && statement.name.text === enumName) {
      return statement.members.find((m) => (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) && m.name.text === member)?.initializer;
    }
  }
  return undefined;
}

/** `a.b['c']` → root `a` and keys `['b', 'c']`; undefined unless every key is written literally. */
function accessChain(node: ts.Expression): { root: ts.Identifier; keys: string[] } | undefined {
  const keys: string[] = [];
  let current = unwrap(node);
  for (;;) {
    if (ts.isPropertyAccessExpression(current)) keys.unshift(current.name.text);
    else if (ts.isElementAccessExpression(current) && ts.isStringLiteral(current.argumentExpression)) keys.unshift(current.argumentExpression.text);
    else break;
    current = unwrap(current.expression);
  }
  return ts.isIdentifier(current) && keys.length > 0 ? { root: current, keys } : undefined;
}

/**
 * The path an expression spells, as text and references to imported constants: a literal, a
 * template or `+`, a same-file constant, a property of a same-file object literal or enum
 * (`routesV1.user.root`), a class member (`this.path`), or an import (`import { routesV1 }`),
 * looked up once every file is known. Undefined when some part is not written down.
 * @example spellPath(src, parse('`/${routesV1.user.root}/:id`')) // ['/', { node: 'src/a.ts#routesV1', path: ['user', 'root'], … }, '/:id']
 */
export function spellPath(src: ParsedSource, node: ts.Expression, depth = 0): SpelledPath | undefined {
  if (depth > MAX_HOPS) return undefined;
  const inner = unwrap(node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return [inner.text];
  if (ts.isTemplateExpression(inner)) {
    const parts: Array<SpelledPath[number]> = [inner.head.text];
    for (const span of inner.templateSpans) {
      const part = spellPath(src, span.expression, depth + 1);
      if (!part) return undefined;
      parts.push(...part, span.literal.text);
    }
    return parts;
  }
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = spellPath(src, inner.left, depth + 1);
    const right = left && spellPath(src, inner.right, depth + 1);
    return left && right ? [...left, ...right] : undefined;
  }
  if (ts.isIdentifier(inner)) {
    const value = valueOf(src, inner);
    if (value !== inner) return spellPath(src, value, depth + 1);
    return src.bindings.has(inner.text) ? [{ node: `${src.relPath}#${inner.text}`, path: [], text: inner.text }] : undefined;
  }
  const chain = accessChain(inner);
  if (chain) {
    const [first, ...rest] = chain.keys as [string, ...string[]];
    const enumValue = rest.length === 0 ? enumMember(src, chain.root.text, first) : undefined;
    if (enumValue) return spellPath(src, enumValue, depth + 1);
    let current: ts.Expression = valueOf(src, chain.root);
    // `const config = require('../config')` names a module as an import does.
    const required = ts.isCallExpression(current) && ts.isIdentifier(current.expression) && current.expression.text === 'require';
    if (current === chain.root || required) {
      // An imported object: its properties are looked up in the module that declares it.
      return src.bindings.has(chain.root.text) ? [{ node: `${src.relPath}#${chain.root.text}`, path: chain.keys, text: inner.getText(src.sf) }] : undefined;
    }
    for (const key of chain.keys) {
      const object = objectArgument(src, current);
      const next = object && propertyValue(object, key);
      if (!next) return undefined;
      current = next;
    }
    return spellPath(src, current, depth + 1);
  }
  const text = staticString(src, inner);
  return text === undefined ? undefined : [text];
}

/**
 * The string constants a file declares, by `file#name.key…`: top-level `const`s and the leaves of
 * their object literals, enums, and an `export default` / `module.exports` object (`file#default.…`),
 * for paths and prefixes other modules name (`@Post(routesV1.user.root)`, `app.use(config.api.prefix, r)`).
 * @example declaredConstants(parseSource('src/config.ts', "export default { api: { prefix: '/api' } }")) // [['src/config.ts#default.api.prefix', '/api']]
 */
export function declaredConstants(src: ParsedSource): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const record = (name: string, node: ts.Expression, depth: number): void => {
    if (out.length >= MAX_VALUES || depth > 4) return;
    const value = unwrap(node);
    if (ts.isObjectLiteralExpression(value)) {
      for (const property of value.properties) {
        const key = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
        const init = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
        if (key && init) record(`${name}.${key}`, init, depth + 1);
      }
      return;
    }
    const path = spellPath(src, value);
    if (path?.every((part) => typeof part === 'string')) out.push([name, path.join('')]);
  };
  // Only what is written as a string or an object: a call or another name at the top is no route table.
  const written = (node: ts.Expression): boolean => {
    const value = unwrap(node);
    return ts.isStringLiteral(value) || ts.isTemplateLiteral(value) || ts.isObjectLiteralExpression(value) || ts.isBinaryExpression(value);
  };
  for (const statement of src.sf.statements) {
    if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer && written(declaration.initializer)) record(`${src.relPath}#${declaration.name.text}`, declaration.initializer, 0);
      }
    }
    if (ts.isEnumDeclaration(statement)) {
      for (const member of statement.members) {
        if (member.initializer && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) record(`${src.relPath}#${statement.name.text}.${member.name.text}`, member.initializer, 1);
      }
    }
    if (ts.isExportAssignment(statement) && written(statement.expression)) record(`${src.relPath}#default`, statement.expression, 0);
    const assigned = ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression) ? statement.expression : undefined;
    if (assigned?.operatorToken.kind === ts.SyntaxKind.EqualsToken && assigned.left.getText(src.sf) === 'module.exports' && written(assigned.right)) {
      record(`${src.relPath}#default`, assigned.right, 0);
    }
  }
  return out;
}
