/**
 * A TS/JS file's body types and DTO bases named through its imports — `import { CreateUserDto }
 * from './dto/create-user.dto'`, a tsconfig path (`@app/dto`), a namespace or `require`d module
 * (`validate(userValidation.createUser)`), or a declaration of the file itself — qualified by the
 * files the import may name (shape-refs.ts), so that an endpoint takes its own module's
 * `CreateUserDto` when two modules declare one. What a file re-exports (`export { X } from`,
 * `export * from`, `module.exports.userValidation = require(…)`) is recorded for the files that
 * import from it. An import of a package keeps the bare name.
 */
import ts from 'typescript';
import { moduleEntry, OMITTED, qualifiedName, reexportKey } from '../shape-refs.js';
import { bindingOf, exportsTarget, requiredSpecifier } from './ts-imported-handlers.js';
import { unwrap, type ParsedSource } from './ts-source.js';

/** Files the module `specifier` may be, from `src`; undefined for a package. */
const moduleFiles = (src: ParsedSource, specifier: string): string[] | undefined => src.paths.candidates(src.relPath, specifier);

/** One name as the file writes it: `CreateUserDto`, `Dto` (imported under another name), `userValidation.createUser`. */
function qualifyOne(src: ParsedSource, written: string): string {
  const dot = written.indexOf('.');
  if (dot < 0) {
    const binding = bindingOf(src, written, { types: true });
    if (!binding) return qualifiedName(written, [src.relPath]);
    // A whole module (`const schema = require('./schema')`) is no declared shape.
    if ('whole' in binding) return written;
    const exported = binding.exportName === 'default' ? written : binding.exportName;
    return qualifiedName(exported, moduleFiles(src, binding.specifier) ?? []);
  }
  const name = written.slice(dot + 1);
  if (name.includes('.')) return name.slice(name.lastIndexOf('.') + 1);
  const binding = bindingOf(src, written.slice(0, dot), { types: true });
  const files = binding && moduleFiles(src, binding.specifier);
  if (!binding || !files) return name;
  // `ns.createUser`: ns is the module (a namespace import, `require`, a default export), or a module another one re-exports as ns.
  return 'whole' in binding || binding.exportName === 'default' ? qualifiedName(name, files) : qualifiedName(`${binding.exportName}.${name}`, files);
}

/**
 * A body type as the file writes it (`A|B` candidates), each qualified by the files its import may name.
 * @example qualifiedBodyType(parseSource('src/users/users.controller.ts', "import { CreateUserDto } from './dto'"), 'CreateUserDto') // 'CreateUserDto@src/users/dto,src/users/dto.ts,…'
 */
export function qualifiedBodyType(src: ParsedSource, written: string): string {
  return written.split('|').map((type) => qualifyOne(src, type)).join('|');
}

/** Records, under `out`, what `src` exports from other modules: names, whole modules and modules as namespaces. */
function reexports(src: ParsedSource, own: ReadonlyMap<string, readonly string[]>, out: Map<string, string[]>): void {
  const file = src.relPath;
  const addModule = (namespace: string | undefined, files: readonly string[] | undefined): void => {
    if (!files) return;
    const key = reexportKey(file, namespace);
    out.set(key, [...(out.get(key) ?? []), moduleEntry(files)]);
  };
  const alias = (exported: string, target: string): void => {
    if (!own.has(exported) && target !== `${exported}@${file}`) out.set(`${exported}@${file}`, [`...${target}`]);
  };
  // `export { local as exported }`, `module.exports.exported = value`: an import passed on, or a module as a namespace.
  const exportLocal = (exported: string, value: ts.Expression): void => {
    const inner = unwrap(value);
    const required = requiredSpecifier(inner);
    if (required !== undefined) return addModule(exported, moduleFiles(src, required));
    if (!ts.isIdentifier(inner)) return;
    const binding = bindingOf(src, inner.text, { types: true });
    if (binding && 'whole' in binding) return addModule(exported, moduleFiles(src, binding.specifier));
    alias(exported, qualifyOne(src, inner.text));
  };
  for (const statement of src.sf.statements) {
    if (ts.isExportDeclaration(statement)) {
      const specifier = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      const files = specifier === undefined ? undefined : moduleFiles(src, specifier);
      const clause = statement.exportClause;
      if (!clause) addModule(undefined, files);
      else if (ts.isNamespaceExport(clause)) addModule(clause.name.text, files);
      else {
        for (const element of clause.elements) {
          // `export { default as CreateUserDto } from './create-user.dto'`: a default-exported class goes by its own name.
          const local = element.propertyName && element.propertyName.text !== 'default' ? element.propertyName.text : element.name.text;
          if (files) alias(element.name.text, qualifiedName(local, files));
          else if (specifier === undefined) exportLocal(element.name.text, element.propertyName ?? element.name);
        }
      }
      continue;
    }
    if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression) || statement.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
    const target = exportsTarget(statement.expression.left);
    const value = unwrap(statement.expression.right);
    if (target === undefined) continue;
    if (target !== 'module') exportLocal(target, value);
    else if (requiredSpecifier(value) !== undefined) addModule(undefined, moduleFiles(src, requiredSpecifier(value) ?? ''));
    else if (ts.isObjectLiteralExpression(value)) {
      for (const property of value.properties) {
        if (ts.isShorthandPropertyAssignment(property)) exportLocal(property.name.text, property.name);
        else if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) exportLocal(property.name.text, property.initializer);
      }
    }
  }
}

/**
 * The file's shapes also under `Name@file`, their bases (`...Base`, `...Base!omitted`) qualified
 * through the file's imports, and what the file re-exports.
 * @example qualifiedShapes(src, new Map([['UpdateUserDto', ['...CreateUserDto']]])).get('UpdateUserDto@src/users/dto/update-user.dto.ts') // ['...CreateUserDto@src/users/dto/create-user.dto,…']
 */
export function qualifiedShapes(src: ParsedSource, shapes: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, fields] of shapes) {
    const own = fields.map((field) => {
      if (!field.startsWith('...')) return field;
      const [base = '', ...omitted] = field.slice(3).split(OMITTED);
      return `...${[qualifyOne(src, base), ...omitted].join(OMITTED)}`;
    });
    out.set(name, own);
    out.set(`${name}@${src.relPath}`, own);
  }
  reexports(src, shapes, out);
  return out;
}
