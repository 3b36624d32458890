/**
 * What a TypeScript/JavaScript handler does through code of its own repository, one call deep: the
 * method of an injected class service (`this.articleService.favorite(slug)` with
 * `constructor(private readonly articleService: ArticleService)`, the NestJS layout), a function of
 * the same file (`await createCheckoutSession(userId)`) or one imported from a project module
 * (relative, or through tsconfig `paths` / subpath imports). Controllers of these frameworks often
 * only bind and delegate; the write or the payment sits one function further. A callee whose code
 * is not in the repository (a package) is not followed.
 */
import ts from 'typescript';
import { READING_NAME, type CalleeBody, type FollowedCall } from './cost-callees.js';
import type { ReadLines } from './cost-python-callees.js';
import type { ModulePaths } from './module-paths.js';
import { maskCode } from './patterns/code-mask.js';
import { classMember, enclosingClass, thisProperty } from './ts/ts-class-members.js';
import { declarationOf } from './ts/ts-declarations.js';
import { bindingOf, exportedFunction } from './ts/ts-imported-handlers.js';
import { hasModifier, nodeEndLine, nodeLine, parseSource, unwrap, type FunctionLike, type ParsedSource } from './ts/ts-source.js';

/** Files of the TS/JS family, the only ones followed here. */
export const TS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** Calls followed per handler: a handler delegates to a handful of functions, not more. */
const MAX_CALLS = 24;

export interface TsSources {
  readonly root: string;
  readonly read: ReadLines;
  readonly paths: ModulePaths;
}

const parsedCache = new Map<string, ParsedSource | undefined>();
/** A project file parsed once per root (undefined when absent or not TS/JS). */
export function parsedFile(sources: TsSources, file: string): ParsedSource | undefined {
  const key = `${sources.root}\0${file}`;
  if (!parsedCache.has(key)) {
    const lines = TS_FILE.test(file) ? sources.read(file) : [];
    parsedCache.set(key, lines.length > 0 ? parseSource(file, lines.join('\n'), sources.paths) : undefined);
  }
  return parsedCache.get(key);
}

/** The project file an import specifier of `src` names (the first candidate that exists), or undefined for a package. */
function importedFile(sources: TsSources, src: ParsedSource, specifier: string): ParsedSource | undefined {
  for (const candidate of src.paths.candidates(src.relPath, specifier) ?? []) {
    const found = parsedFile(sources, candidate);
    if (found) return found;
  }
  return undefined;
}

/**
 * The package a local name of `file` is imported from (`crypto` → `node:crypto`), or undefined for a
 * name of the file itself or one imported from a project module.
 * @example packageOf(sources, 'controllers/ai.js', 'crypto') // 'node:crypto'
 */
export function packageOf(sources: TsSources, file: string, local: string): string | undefined {
  const src = parsedFile(sources, file);
  const specifier = src?.bindings.get(local);
  if (!src || specifier === undefined) return undefined;
  return src.paths.candidates(src.relPath, specifier) === undefined ? specifier : undefined;
}

/** A class declared at the top of a file: by name, or its default export. */
function classIn(src: ParsedSource, name: string): ts.ClassDeclaration | undefined {
  return src.sf.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && (name === 'default' ? hasModifier(s, ts.SyntaxKind.DefaultKeyword) : s.name?.text === name));
}

/** The class a type or constructor name stands for in `src`: declared there, or imported from a project module. */
function classNamed(sources: TsSources, src: ParsedSource, name: string): { src: ParsedSource; cls: ts.ClassDeclaration } | undefined {
  const own = classIn(src, name);
  if (own) return { src, cls: own };
  const binding = bindingOf(src, name);
  const target = binding && 'exportName' in binding ? importedFile(sources, src, binding.specifier) : undefined;
  const cls = target && binding && 'exportName' in binding ? classIn(target, binding.exportName) : undefined;
  return target && cls ? { src: target, cls } : undefined;
}

/** `this.articleService` → the class its declared type or initializer names (`ArticleService`, `new ArticleService()`). */
function serviceClass(sources: TsSources, src: ParsedSource, receiver: ts.Expression): { src: ParsedSource; cls: ts.ClassDeclaration } | undefined {
  const property = thisProperty(receiver);
  const type = property?.type;
  const init = property?.init && unwrap(property.init);
  const name = type && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)
    ? type.typeName.text
    : init && ts.isNewExpression(init) && ts.isIdentifier(init.expression) ? init.expression.text : undefined;
  return name ? classNamed(sources, src, name) : undefined;
}

/** The repository's own function a call stands for, with the file declaring it. */
function calleeOf(sources: TsSources, src: ParsedSource, call: ts.CallExpression): { src: ParsedSource; fn: FunctionLike } | undefined {
  const target = unwrap(call.expression);
  if (ts.isIdentifier(target)) {
    // Same file first (`const createCheckoutSession = async (…) => …`), then an import of a project module.
    const own = declarationOf(src, target.text)?.fn;
    if (own) return { src, fn: own };
    const binding = bindingOf(src, target.text);
    const module = binding ? importedFile(sources, src, binding.specifier) : undefined;
    const fn = module && binding ? exportedFunction(module, 'exportName' in binding ? binding.exportName : 'default', undefined) : undefined;
    return module && fn ? { src: module, fn } : undefined;
  }
  if (!ts.isPropertyAccessExpression(target)) return undefined;
  const method = target.name.text;
  const receiver = unwrap(target.expression);
  if (receiver.kind === ts.SyntaxKind.ThisKeyword) {
    // `this.helper(…)`: a method of the handler's own class.
    const cls = enclosingClass(call);
    const fn = cls ? classMember(src, cls, method) : undefined;
    return fn ? { src, fn } : undefined;
  }
  if (ts.isPropertyAccessExpression(receiver)) {
    // `this.articleService.favorite(…)`: the injected service's class.
    const service = serviceClass(sources, src, receiver);
    const fn = service ? classMember(service.src, service.cls, method) : undefined;
    return service && fn ? { src: service.src, fn } : undefined;
  }
  if (!ts.isIdentifier(receiver)) return undefined;
  // `orders.create(…)` with `import * as orders from './orders'`, or `const orders = require('./orders')`.
  const binding = bindingOf(src, receiver.text);
  const module = binding ? importedFile(sources, src, binding.specifier) : undefined;
  if (!module || !binding) return undefined;
  const fn = 'exportName' in binding ? exportedFunction(module, binding.exportName, method) : exportedFunction(module, binding.whole === 'namespace' ? method : 'default', binding.whole === 'namespace' ? undefined : method);
  return fn ? { src: module, fn } : undefined;
}

/** The body of a function as the callee probe reads it: comments blanked, with its lines. */
function bodyOf(src: ParsedSource, fn: FunctionLike): CalleeBody | undefined {
  const body = fn.body;
  if (!body) return undefined;
  const start = body.getStart(src.sf);
  return { file: src.relPath, line: nodeLine(src, body), end: nodeEndLine(src, body), text: maskCode(src.sf.text.slice(start, body.end), 'js') };
}

const calledName = (call: ts.CallExpression): string | undefined => {
  const target = unwrap(call.expression);
  if (ts.isIdentifier(target)) return target.text;
  return ts.isPropertyAccessExpression(target) ? target.name.text : undefined;
};

/**
 * The calls a TS/JS handler (lines `start`–`end` of `file`) makes into the repository's own code,
 * one level deep, each with the callee's body. Calls to packages, and names that ask or read
 * (`findOne`, `getUser`), are not followed.
 * @example followTsCalls(sources, 'src/article/article.controller.ts', 93, 96)
 * // [{ name: 'favorite', label: 'this.articleService.favorite', callee: { file: 'src/article/article.service.ts', line: 131, … } }]
 */
export function followTsCalls(sources: TsSources, file: string, start: number, end: number): FollowedCall[] {
  const src = parsedFile(sources, file);
  if (!src) return [];
  const out: FollowedCall[] = [];
  const handlerStart = src.sf.getPositionOfLineAndCharacter(Math.max(0, start - 1), 0);
  const visit = (node: ts.Node): void => {
    if (out.length >= MAX_CALLS) return;
    const line = node.getStart(src.sf) >= handlerStart ? nodeLine(src, node) : 0;
    if (line > end) return;
    if (ts.isCallExpression(node) && line >= start) {
      const name = calledName(node);
      const callee = name && !READING_NAME.test(name) ? calleeOf(sources, src, node) : undefined;
      // A function never follows itself (a recursive handler, or the handler's own declaration).
      const body = callee && !(callee.src === src && nodeLine(src, callee.fn) >= start && nodeLine(src, callee.fn) <= end) ? bodyOf(callee.src, callee.fn) : undefined;
      if (name && body && !out.some((c) => c.callee?.file === body.file && c.callee.line === body.line)) {
        out.push({ name, at: node.getStart(src.sf), label: node.expression.getText(src.sf).replace(/\s+/g, ''), callee: body });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}
