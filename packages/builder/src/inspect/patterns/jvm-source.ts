/**
 * Java and Kotlin source read as code (comments and strings blanked by `maskCode` in code-mask.ts):
 * the file's main type declaration (class or interface, its annotations and the types it
 * implements), and the build module a file belongs to.
 */

import { maskCode } from './code-mask.js';

export interface JvmTypeDeclaration {
  readonly kind: 'class' | 'interface';
  readonly name: string;
  /** Offset of the `class`/`interface` keyword. */
  readonly index: number;
  /** Offset where the type's own annotations may start: after the previous top-level statement. */
  readonly headStart: number;
  /** Types named after `implements`/`extends` (Java) or after `:` (Kotlin), simple names. */
  readonly supertypes: readonly string[];
}

/** Where the annotations before `at` start: after the last `;`, `{` or `}` outside parentheses (annotation arguments may hold braces). */
function headStart(code: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= 0; i -= 1) {
    const char = code[i];
    if (char === ')') depth += 1;
    else if (char === '(') depth -= 1;
    else if (depth === 0 && (char === ';' || char === '{' || char === '}')) return i + 1;
  }
  return 0;
}

/**
 * The top-level class or interface of a file that declares what sits at offset `at` (the file's
 * first mapping, its own class-level one included), else the first (records and enums count as
 * classes; `@interface` annotation types are skipped). Found in code with comments and strings
 * blanked, so a `class` in a Javadoc is no declaration.
 * @example mainJvmType('/** a class for x *\/\n@RestController\nclass A implements B {}')?.supertypes // ['B']
 */
export function mainJvmType(text: string, at = 0): JvmTypeDeclaration | undefined {
  const code = maskCode(text, 'jvm', { strings: true });
  const topLevel: RegExpExecArray[] = [];
  let depth = 0;
  let scanned = 0;
  for (const found of code.matchAll(/(?<![@\w.])(class|interface|record|enum)\s+([A-Za-z_]\w*)/g)) {
    for (; scanned < (found.index ?? 0); scanned += 1) depth += code[scanned] === '{' ? 1 : code[scanned] === '}' ? -1 : 0;
    if (depth === 0) topLevel.push(found as RegExpExecArray);
  }
  // The type whose annotations or body hold `at`: the last whose head starts before it.
  const found = topLevel.filter((m) => headStart(code, m.index) <= at).pop() ?? topLevel[0];
  if (!found) return undefined;
  const bodyAt = code.indexOf('{', found.index);
  // Type parameters and constructor parameters may hold `extends` and `:` of their own.
  let header = code.slice(found.index + found[0].length, bodyAt < 0 ? undefined : bodyAt);
  for (let pass = 0; pass < 8 && /<[^<>]*>|\([^()]*\)/.test(header); pass += 1) header = header.replace(/<[^<>]*>|\([^()]*\)/g, '');
  // Java: `extends A implements B, C`; Kotlin: `(…) : A, B(…)` after the constructor.
  const listed = /\b(?:implements|extends)\s+([\s\S]*)$/.exec(header)?.[1] ?? /:\s*([^:]*)$/.exec(header)?.[1] ?? '';
  const supertypes = listed.replace(/\bimplements\b/g, ',').split(',').map((part) => /([A-Za-z_]\w*)\s*$/.exec(part.trim())?.[1] ?? '').filter(Boolean);
  return { kind: found[1] === 'interface' ? 'interface' : 'class', name: found[2] ?? '', index: found.index, headStart: headStart(code, found.index), supertypes };
}

/**
 * The route-graph node of the build module a Spring source file belongs to: the directory above
 * its `src/main/`, where that module's `application.properties` lives (jvm-spring-config.ts).
 * Files outside a `src/main/` tree belong to no known module.
 * @example springModuleNode('account-service/src/main/java/a/AccountController.java') // 'spring:module:account-service'
 */
export function springModuleNode(relPath: string): string | undefined {
  const at = relPath.startsWith('src/main/') ? 0 : relPath.indexOf('/src/main/');
  if (at < 0) return undefined;
  return `spring:module:${at === 0 ? '.' : relPath.slice(0, at)}`;
}

/** Route-graph node prefix of mappings declared on an interface (jvm-spring-routes.ts decides whose they are). */
export const SPRING_INTERFACE_NODE = 'spring:interface:';

/** Setting name prefix: `spring-implements:<Interface>` → the file of a controller implementing it. */
export const SPRING_IMPLEMENTS = 'spring-implements:';
