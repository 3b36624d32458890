/**
 * Routers built and returned by a factory (`export default () => { const app = Router(); auth(app);
 * return app }`, mounted as `app.use(config.api.prefix, routes())`): mounting the factory's call
 * mounts the router it returns, resolved with every file's aliases in route-graph.ts.
 */
import ts from 'typescript';
import { hasModifier, unwrap, type ParsedSource } from './ts-source.js';

type FactoryFunction = ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction;

/** The identifier every `return` of a function gives back, when there is exactly one. */
function returnedName(fn: FactoryFunction): string | undefined {
  if (!fn.body) return undefined;
  if (!ts.isBlock(fn.body)) return ts.isIdentifier(unwrap(fn.body)) ? (unwrap(fn.body) as ts.Identifier).text : undefined;
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && node !== fn) return;
    if (ts.isReturnStatement(node) && node.expression) names.add(ts.isIdentifier(unwrap(node.expression)) ? (unwrap(node.expression) as ts.Identifier).text : '');
    ts.forEachChild(node, visit);
  };
  visit(fn.body);
  const [only] = names;
  return names.size === 1 && only ? only : undefined;
}

/** The name a factory function is known by in its file (`export default` → `default`). */
function factoryName(fn: FactoryFunction): string | undefined {
  if (ts.isFunctionDeclaration(fn)) return hasModifier(fn, ts.SyntaxKind.DefaultKeyword) ? 'default' : fn.name?.text;
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isExportAssignment(parent)) return 'default';
  return undefined;
}

/**
 * `factory → router` aliases for functions that build a router and return it, so that mounting
 * the factory's call mounts that router. A function that also routes on a parameter is left out:
 * its own node already stands for that parameter.
 * @example factoryAliases(src, new Set(['app'])) // [['src/api/index.ts#default', 'src/api/index.ts#app']]
 */
export function factoryAliases(src: ParsedSource, serverVars: ReadonlySet<string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node)) && node.parameters.length === 0) {
      const name = factoryName(node);
      const returned = returnedName(node);
      if (name && returned && serverVars.has(returned) && name !== returned) out.push([`${src.relPath}#${name}`, `${src.relPath}#${returned}`]);
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}
