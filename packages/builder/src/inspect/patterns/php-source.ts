/**
 * PHP source read as code (comments already blanked by `maskCode` in code-mask.ts): the
 * small readers the Laravel scanners share — a call chain (`Route::prefix('v1')->group(…)`), an
 * argument list split at its top-level commas, literals, `use` imports and a method's extent.
 */
import { lineAtOffset } from '../location.js';
import { scanTopLevel } from '../text-scan.js';
import { braceBlockEnd } from './line-patterns.js';

/** One call of a chain: its name, the text between its parentheses and where that text starts. */
export interface PhpCall {
  readonly name: string;
  readonly args: string;
  readonly argsStart: number;
}

/**
 * The calls of a chain whose first call's name starts at `from`: `prefix('v1')->middleware('x')->
 * group(function () {…})` gives prefix, middleware and group, each with its argument text.
 * @example callChain("prefix('v1')->group(fn)", 0).map((c) => c.name) // ['prefix', 'group']
 */
export function callChain(code: string, from: number): PhpCall[] {
  const calls: PhpCall[] = [];
  let at = from;
  for (;;) {
    const head = /^\s*(\w+)\s*\(/.exec(code.slice(at, at + 200));
    if (!head) break;
    const argsStart = at + head[0].length;
    const close = scanTopLevel(code, argsStart, (char) => char === ')');
    calls.push({ name: head[1] ?? '', args: code.slice(argsStart, close), argsStart });
    const next = /^\s*->/.exec(code.slice(close + 1, close + 200));
    if (!next) break;
    at = close + 1 + next[0].length;
  }
  return calls;
}

/**
 * An argument list or array body split at its top-level commas, each part trimmed, with its offset.
 * @example splitArguments("'a', [1, 2], f(x)").map((a) => a.text) // ["'a'", '[1, 2]', 'f(x)']
 */
export function splitArguments(args: string): Array<{ text: string; start: number }> {
  const out: Array<{ text: string; start: number }> = [];
  for (let at = 0; at < args.length;) {
    const comma = scanTopLevel(args, at, (char) => char === ',');
    const raw = args.slice(at, comma);
    const text = raw.trim();
    if (text) out.push({ text, start: at + raw.indexOf(text) });
    at = comma + 1;
  }
  return out;
}

/**
 * The value of a single- or double-quoted literal, undefined for anything else.
 * @example stringValue("'v1'") // 'v1'
 */
export function stringValue(expr: string): string | undefined {
  return /^(["'])([^"'\\$]*)\1$/.exec(expr.trim())?.[2];
}

/**
 * The literals of an array written out (`['store', 'destroy']`), of a bare literal (`'store'`), or
 * of several literal arguments.
 * @example stringList("['put', 'patch']") // ['put', 'patch']
 */
export function stringList(expr: string): string[] {
  const body = expr.trim().replace(/^(?:array\s*\(|\[)([\s\S]*)(?:\)|\])$/, '$1');
  return splitArguments(body).flatMap((part) => {
    const value = stringValue(part.text);
    return value === undefined ? [] : [value];
  });
}

/**
 * The `'key' => value` entries at the top level of an array literal, values as written.
 * @example arrayEntries("['prefix' => 'v1', 'middleware' => ['a']]").get('prefix') // "'v1'"
 */
export function arrayEntries(expr: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = expr.trim().replace(/^(?:array\s*\(|\[)([\s\S]*)(?:\)|\])$/, '$1');
  for (const part of splitArguments(body)) {
    const entry = /^(["'])([^"']*)\1\s*=>\s*([\s\S]*)$/.exec(part.text);
    if (entry) out.set(entry[2] ?? '', (entry[3] ?? '').trim());
  }
  return out;
}

/**
 * A class named by an expression: `OrderController::class`, `'App\Http\X'`, `\App\X::class`.
 * @example className('OrderController::class') // 'OrderController'
 */
export function className(expr: string): string | undefined {
  const trimmed = expr.trim();
  return /^\\?([\w\\]+)::class$/.exec(trimmed)?.[1] ?? /^["']\\?([\w\\]+)["']$/.exec(trimmed)?.[1]?.replace(/\\\\/g, '\\');
}

/**
 * The file's namespace and its `use` imports: short name (or alias) → fully qualified name.
 * @example phpImports('namespace App;\nuse App\\Http\\X as Y;').imports.get('Y') // 'App\\Http\\X'
 */
export function phpImports(code: string): { namespace: string; imports: Map<string, string> } {
  const namespace = /^\s*namespace\s+([\w\\]+)\s*;/m.exec(code)?.[1] ?? '';
  const imports = new Map<string, string>();
  // Imports stand above the class: a `use Trait;` in its body names a trait, not an alias.
  const declaration = /^[ \t]*(?:(?:abstract|final|readonly)\s+)*(?:class|trait|interface|enum)\s+\w+/m.exec(code);
  const header = declaration ? code.slice(0, declaration.index) : code;
  for (const match of header.matchAll(/^\s*use\s+([^;(]+);/gm)) {
    // `use A\{B, C as D};` group imports and plain `use A\B as C;`.
    const group = /^([\w\\]+)\\\{([^}]*)\}$/.exec((match[1] ?? '').trim());
    const names = group ? (group[2] ?? '').split(',').map((n) => `${group[1] ?? ''}\\${n.trim()}`) : (match[1] ?? '').split(',');
    for (const name of names) {
      const [fqcn = '', alias] = name.trim().replace(/^\\/, '').split(/\s+as\s+/i);
      if (/^(?:function|const)\s/.test(fqcn) || !fqcn) continue;
      imports.set(alias ?? fqcn.slice(fqcn.lastIndexOf('\\') + 1), fqcn);
    }
  }
  return { namespace, imports };
}

/**
 * The fully qualified name a class reference has in a file: imported, relative to the file's
 * namespace, or already qualified (`\App\X`).
 * @example qualify('X', { namespace: 'App', imports: new Map() }) // 'App\\X'
 */
export function qualify(name: string, scope: { namespace: string; imports: ReadonlyMap<string, string> }): string {
  if (name.startsWith('\\')) return name.slice(1);
  const [first = '', ...rest] = name.split('\\');
  const imported = scope.imports.get(first);
  if (imported) return [imported, ...rest].join('\\');
  return scope.namespace ? `${scope.namespace}\\${name}` : name;
}

/** A method of a class: 1-based lines of its header and closing brace, and its parameter list. */
export interface PhpMethod {
  readonly start: number;
  readonly end: number;
  readonly params: string;
}

/**
 * The method `name` declared in `code` (comments blanked), or undefined.
 * @example phpMethod('class A {\n  public function store(Request $r) {\n    x();\n  }\n}', 'store') // { start: 2, end: 4, params: 'Request $r' }
 */
export function phpMethod(code: string, name: string): PhpMethod | undefined {
  const header = new RegExp(`\\bfunction\\s+&?${name}\\s*\\(`, 'g').exec(code);
  if (!header) return undefined;
  const argsStart = header.index + header[0].length;
  const close = scanTopLevel(code, argsStart, (char) => char === ')');
  const start = lineAtOffset(code, header.index);
  // An abstract or interface method has no body: `;` before any `{`.
  const after = code.slice(close + 1, close + 400);
  if (/^[^{]*;/.test(after)) return { start, end: start, params: code.slice(argsStart, close) };
  return { start, end: braceBlockEnd(code, lineAtOffset(code, close + 1 + after.indexOf('{'))), params: code.slice(argsStart, close) };
}
