/**
 * Route handlers declared in another module: the routes + controllers layout most Express apps
 * use (`router.post('/', protect, addOrderItems)` with `addOrderItems` imported from
 * `../controllers/orderController.js`). The route's file records how it imports the handler
 * (`importedHandler`); once every file is known, `resolveImportedHandlers` reads the module that
 * exports it and takes the body fields, schema, signature check and lines from the function there.
 *
 * Relative specifiers, the project's path mappings (`@/controllers`, `#controllers/*`; see
 * module-paths.ts) and barrels (`export * from './x.js'`) up to three hops: a handler a package
 * exports, or one that cannot be found, keeps "defined elsewhere" — the inspector says what it
 * did not read rather than guess.
 */
import ts from 'typescript';
import type { ModulePaths } from '../module-paths.js';
import type { EndpointFinding, HandlerImport } from '../types.js';
import { classMember, thisProperty } from './ts-class-members.js';
import { declarationOf, functionOf } from './ts-declarations.js';
import { handlerFacts } from './ts-handler-facts.js';
import { hasModifier, parseSource, unbound, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** How deep `a(b(handler))` wrappers and re-export chains are followed. */
const MAX_DEPTH = 3;

/** How a local name is bound to an imported module: one of its exports, or the whole module (`* as ns`, `require`). */
export type Binding = { readonly specifier: string; readonly exportName: string } | { readonly specifier: string; readonly whole: 'namespace' | 'module' };

/**
 * What a local name of the file is bound to by an `import` or `require`, or undefined for a name of
 * its own. `types`: type-only imports count too (a DTO interface), else only values do (a handler).
 */
export function bindingOf(src: ParsedSource, local: string, { types = false }: { readonly types?: boolean } = {}): Binding | undefined {
  for (const statement of src.sf.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const specifier = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause || (clause.isTypeOnly && !types)) continue;
      if (clause.name?.text === local) return { specifier, exportName: 'default' };
      const named = clause.namedBindings;
      if (named && ts.isNamespaceImport(named) && named.name.text === local) return { specifier, whole: 'namespace' };
      if (named && ts.isNamedImports(named)) {
        const element = named.elements.find((e) => e.name.text === local && (types || !e.isTypeOnly));
        if (element) return { specifier, exportName: element.propertyName?.text ?? local };
      }
    }
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const specifier = requiredSpecifier(declaration.initializer);
      if (specifier === undefined) continue;
      if (ts.isIdentifier(declaration.name) && declaration.name.text === local) return { specifier, whole: 'module' };
      if (ts.isObjectBindingPattern(declaration.name)) {
        const element = declaration.name.elements.find((e) => ts.isIdentifier(e.name) && e.name.text === local);
        const property = element?.propertyName;
        if (element) return { specifier, exportName: property && ts.isIdentifier(property) ? property.text : local };
      }
    }
  }
  return undefined;
}

/** `'./x'` for `require('./x')`, else undefined. */
export function requiredSpecifier(node: ts.Expression | undefined): string | undefined {
  const inner = node ? unwrap(node) : undefined;
  if (!inner || !ts.isCallExpression(inner) || !ts.isIdentifier(inner.expression) || inner.expression.text !== 'require') return undefined;
  const [arg] = inner.arguments;
  return arg && ts.isStringLiteral(arg) ? arg.text : undefined;
}

/**
 * How a route's file imports the handler it names, when the handler is not declared in the file:
 * `addOrderItems` (a named or default import, a destructured `require`), `users.registerUser` (a
 * namespace import, or a member of a default export or `module.exports`), either inside a
 * wrapper call (`asyncHandler(addOrderItems)`).
 * @example importedHandler(src, node) // { candidates: ['src/controllers/orders.ts', …], exportName: 'addOrderItems' }
 */
export function importedHandler(src: ParsedSource, node: ts.Expression, depth = 0): HandlerImport | undefined {
  const inner = unbound(node);
  if (ts.isCallExpression(inner)) {
    const last = inner.arguments[inner.arguments.length - 1];
    return last && depth < MAX_DEPTH ? importedHandler(src, last, depth + 1) : undefined;
  }
  if (ts.isIdentifier(inner)) {
    const binding = bindingOf(src, inner.text);
    const candidates = binding && src.paths.candidates(src.relPath, binding.specifier);
    if (!binding || !candidates) return undefined;
    if ('exportName' in binding) return { candidates, exportName: binding.exportName };
    // `const pay = require('./pay')`: the module itself is the handler.
    return binding.whole === 'module' ? { candidates, exportName: 'default' } : undefined;
  }
  if (ts.isPropertyAccessExpression(inner)) {
    if (!ts.isIdentifier(inner.expression)) return instanceHandler(src, inner);
    const binding = bindingOf(src, inner.expression.text);
    const candidates = binding && src.paths.candidates(src.relPath, binding.specifier);
    if (!binding || !candidates) return undefined;
    const member = inner.name.text;
    if ('whole' in binding) return binding.whole === 'namespace' ? { candidates, exportName: member } : { candidates, exportName: 'default', property: member };
    return { candidates, exportName: binding.exportName, property: member };
  }
  return undefined;
}

/**
 * `this.users.create` in a route class whose member holds an imported controller: `users = new
 * UsersController()` (the class's `create`) or `users = usersController` (an imported instance).
 */
function instanceHandler(src: ParsedSource, access: ts.PropertyAccessExpression): HandlerImport | undefined {
  const init = thisProperty(access.expression)?.init;
  const held = init && unwrap(init);
  const local = held && (ts.isNewExpression(held) ? held.expression : held);
  if (!local || !ts.isIdentifier(local)) return undefined;
  const binding = bindingOf(src, local.text);
  const candidates = binding && src.paths.candidates(src.relPath, binding.specifier);
  if (!binding || !candidates || !('exportName' in binding)) return undefined;
  return { candidates, exportName: binding.exportName, property: access.name.text };
}

const isExported = (node: ts.Node) => hasModifier(node, ts.SyntaxKind.ExportKeyword);
const isDefault = (node: ts.Node) => hasModifier(node, ts.SyntaxKind.DefaultKeyword);

/** `module.exports` or `exports` (`target` 'module'), or `module.exports.x` / `exports.x` (the member's name). */
export function exportsTarget(node: ts.Expression): 'module' | string | undefined {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner) && inner.text === 'exports') return 'module';
  if (!ts.isPropertyAccessExpression(inner)) return undefined;
  if (ts.isIdentifier(inner.expression) && inner.expression.text === 'module' && inner.name.text === 'exports') return 'module';
  return exportsTarget(inner.expression) === 'module' ? inner.name.text : undefined;
}

/** A class declared in the file by name. */
function classNamed(src: ParsedSource, name: string): ts.ClassDeclaration | undefined {
  return src.sf.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name);
}

/**
 * The function an object holds under `property`: an object literal's method or value, or — for a
 * controller class — the method of `new UserController()` or a static method of the class itself.
 */
function memberFunction(src: ParsedSource, node: ts.Expression, property: string): FunctionLike | undefined {
  let inner = unwrap(node);
  if (ts.isIdentifier(inner)) {
    const cls = classNamed(src, inner.text);
    if (cls) return classMember(src, cls, property);
    inner = declarationOf(src, inner.text)?.init ?? inner;
  }
  if (ts.isNewExpression(inner) && ts.isIdentifier(inner.expression)) {
    const cls = classNamed(src, inner.expression.text);
    return cls ? classMember(src, cls, property) : undefined;
  }
  if (ts.isClassExpression(inner)) return classMember(src, inner, property);
  if (!ts.isObjectLiteralExpression(inner)) return undefined;
  for (const member of inner.properties) {
    const name = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : undefined;
    if (name !== property) continue;
    if (ts.isMethodDeclaration(member)) return member;
    if (ts.isPropertyAssignment(member)) return functionOf(src, member.initializer);
    if (ts.isShorthandPropertyAssignment(member)) return functionOf(src, member.name);
  }
  return undefined;
}

/** The function a module exports under `exportName` (`default` also being `module.exports`), or that export's `property`. */
export function exportedFunction(src: ParsedSource, exportName: string, property: string | undefined): FunctionLike | undefined {
  const pick = (value: ts.Expression) => (property ? memberFunction(src, value, property) : functionOf(src, value));
  // `export { addOrderItems }` at the end of the file: the declaration of that local name.
  const pickDeclared = (local: string) => {
    const declared = declarationOf(src, local);
    return declared?.fn && !property ? declared.fn : declared?.init ? pick(declared.init) : undefined;
  };
  for (const statement of src.sf.statements) {
    let found: FunctionLike | undefined;
    if (ts.isFunctionDeclaration(statement) && isExported(statement) && !property) {
      if (exportName === 'default' ? isDefault(statement) : statement.name?.text === exportName) found = statement;
    } else if (ts.isClassDeclaration(statement) && isExported(statement) && property) {
      // `import { OrdersController } …` then `OrdersController.create`: a static method.
      if (exportName === 'default' ? isDefault(statement) : statement.name?.text === exportName) found = classMember(src, statement, property);
    } else if (ts.isVariableStatement(statement) && isExported(statement) && exportName !== 'default') {
      const declaration = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === exportName);
      if (declaration?.initializer) found = pick(declaration.initializer);
    } else if (ts.isExportAssignment(statement) && exportName === 'default') {
      found = pick(statement.expression);
    } else if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      const element = statement.exportClause.elements.find((e) => e.name.text === exportName);
      if (element) found = pickDeclared(element.propertyName?.text ?? exportName);
    } else if (ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression) && statement.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const target = exportsTarget(statement.expression.left);
      if (target === 'module' && exportName === 'default') found = pick(statement.expression.right);
      else if (target !== undefined && target !== 'module' && target === exportName) found = pick(statement.expression.right);
    }
    if (found) return found;
  }
  // `const orders = require('./orders')` then `orders.create`: a CommonJS module's `exports.create`.
  return exportName === 'default' && property ? exportedFunction(src, property, undefined) : undefined;
}

/** A function and the file that declares it. */
interface Located {
  readonly src: ParsedSource;
  readonly fn: FunctionLike;
}

/**
 * Gives each route whose handler another module exports the facts of that handler: body fields,
 * schema, signature check and its lines in its own file. A handler that cannot be found keeps
 * what the route's file said of it; `handlerImport` is dropped either way.
 * @example resolveImportedHandlers(endpoints, new Set(files), (rel) => readFileSync(join(root, rel), 'utf8'), modulePaths)
 */
export function resolveImportedHandlers(
  endpoints: readonly EndpointFinding[],
  files: ReadonlySet<string>,
  read: (relPath: string) => string,
  paths: ModulePaths,
): EndpointFinding[] {
  const parsed = new Map<string, ParsedSource | undefined>();
  const load = (relPath: string): ParsedSource | undefined => {
    if (!parsed.has(relPath)) {
      try {
        parsed.set(relPath, parseSource(relPath, read(relPath), paths));
      } catch {
        parsed.set(relPath, undefined);
      }
    }
    return parsed.get(relPath);
  };
  const find = (candidates: readonly string[], exportName: string, property: string | undefined, depth: number): Located | undefined => {
    const file = candidates.find((candidate) => files.has(candidate));
    const src = file ? load(file) : undefined;
    if (!src) return undefined;
    const fn = exportedFunction(src, exportName, property);
    if (fn) return { src, fn };
    if (depth >= MAX_DEPTH) return undefined;
    // A barrel: `export { create } from './orders.js'`, `export * from './orders.js'`.
    for (const statement of src.sf.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const next = src.paths.candidates(src.relPath, statement.moduleSpecifier.text);
      if (!next) continue;
      if (!statement.exportClause && exportName !== 'default') {
        const found = find(next, exportName, property, depth + 1);
        if (found) return found;
      } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        const element = statement.exportClause.elements.find((e) => e.name.text === exportName);
        if (element) return find(next, element.propertyName?.text ?? exportName, property, depth + 1);
      }
    }
    return undefined;
  };
  return endpoints.map((endpoint) => {
    const { handlerImport, ...rest } = endpoint;
    if (!handlerImport || rest.span) return rest;
    const found = find(handlerImport.candidates, handlerImport.exportName, handlerImport.property, 0);
    if (!found) return rest;
    const facts = handlerFacts(found.src, found.fn, undefined, found.src.relPath);
    const bodyType = rest.bodyType ?? facts.bodyType;
    return {
      ...rest,
      bodyFields: [...new Set([...rest.bodyFields, ...facts.bodyFields])],
      ...(bodyType ? { bodyType } : {}),
      webhook: rest.webhook || facts.verifiesSignature,
      span: facts.span,
    };
  });
}
