/**
 * Laravel classes found by name: the file that declares a class (PSR-4 from composer.json, else a
 * unique path ending), and a controller action looked up as PHP resolves a method — the class's
 * own, then the traits it `use`s (and their traits), then its parent class (`extends
 * BaseController`) in the same order. Only the repository's own files are read: a trait or base
 * class from vendor/ (`SendsPasswordResetEmails`, `Illuminate\Routing\Controller`) ends the search.
 */
import { posix } from 'node:path';
import { maskCode } from './code-mask.js';
import { phpImports, phpMethod, qualify, type PhpMethod } from './php-source.js';

export type Read = (relPath: string) => string | undefined;

/** composer.json's PSR-4 roots (`"App\\": "app/"`), `App\` → `app/` when it says nothing. */
export function psr4Roots(read: Read): Array<[string, string]> {
  try {
    const composer = JSON.parse(read('composer.json') ?? '{}') as { autoload?: { 'psr-4'?: Record<string, string | string[]> } };
    const roots = Object.entries(composer.autoload?.['psr-4'] ?? {}).flatMap(([ns, dirs]) => (Array.isArray(dirs) ? dirs : [dirs]).map((dir) => [ns, dir] as [string, string]));
    if (roots.length > 0) return roots;
  } catch {
    // An unreadable composer.json: the Laravel default below.
  }
  return [['App\\', 'app/']];
}

/**
 * The file that declares a class: its PSR-4 path; else the one file whose path ends with the name
 * (`Api/ArticleController.php` for a string controller relative to an unknown namespace), those
 * under `Http/Controllers` preferred. Undefined when none or several fit.
 */
export function classFile(fqcn: string, files: ReadonlySet<string>, roots: ReadonlyArray<[string, string]>): string | undefined {
  for (const [ns, dir] of roots) {
    if (!fqcn.startsWith(ns)) continue;
    const path = posix.join(dir, `${fqcn.slice(ns.length).replace(/\\/g, '/')}.php`);
    if (files.has(path)) return path;
  }
  const parts = fqcn.split('\\');
  for (let i = 0; i < parts.length; i += 1) {
    const tail = `/${parts.slice(i).join('/')}.php`;
    const found = [...files].filter((f) => f.endsWith(tail) || f === tail.slice(1));
    const preferred = found.length > 1 ? found.filter((f) => /Http\/Controllers\//.test(f)) : found;
    if (preferred.length === 1) return preferred[0];
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/** A method as found: the file that declares it (the controller's, a trait's, a base class's) and its masked code. */
export interface FoundMethod {
  readonly file: string;
  readonly code: string;
  readonly method: PhpMethod;
}

export interface ClassSources {
  readonly files: ReadonlySet<string>;
  readonly roots: ReadonlyArray<[string, string]>;
  readonly read: Read;
}

/** Classes and traits read for one action: Laravel apps stack a few, never this many. */
const MAX_CLASSES = 12;

/**
 * The method `name` of class `fqcn` as PHP finds it: declared in the class, else in a trait it uses
 * (`use HasCrud;`, `use A, B { … }`, a trait's own traits), else inherited from its parent. An
 * abstract declaration is not the method. Undefined when the chain leaves the repository first.
 * @example findMethod('App\\Http\\Controllers\\PostController', 'destroy', sources)?.file // 'app/Http/Controllers/Concerns/DeletesRecords.php'
 */
export function findMethod(fqcn: string, name: string, sources: ClassSources, seen: Set<string> = new Set()): FoundMethod | undefined {
  if (seen.has(fqcn) || seen.size >= MAX_CLASSES) return undefined;
  seen.add(fqcn);
  const file = classFile(fqcn, sources.files, sources.roots);
  const text = file ? sources.read(file) : undefined;
  if (!file || !text) return undefined;
  const code = maskCode(text, 'php');
  const method = phpMethod(code, name);
  const abstract = new RegExp(String.raw`\babstract\s+(?:(?:public|protected|private|static)\s+)*function\s+&?${name}\s*\(`).test(code);
  if (method && !abstract) return { file, code, method };
  const short = fqcn.slice(fqcn.lastIndexOf('\\') + 1);
  const decl = new RegExp(String.raw`^[ \t]*(?:(?:abstract|final|readonly)\s+)*(?:class|trait)\s+${short}\b([^{]*)\{`, 'm').exec(code);
  if (!decl) return undefined;
  // Names in the class body resolve against the imports above it (a trait's `use X;` is no import).
  const scope = phpImports(code.slice(0, decl.index));
  const traits = [...code.slice(decl.index + decl[0].length).matchAll(/^[ \t]*use\s+(\\?[\w\\]+(?:\s*,\s*\\?[\w\\]+)*)\s*[;{]/gm)]
    .flatMap((use) => (use[1] ?? '').split(',').map((trait) => qualify(trait.trim(), scope)));
  for (const trait of traits) {
    const found = findMethod(trait, name, sources, seen);
    if (found) return found;
  }
  const parent = /\bextends\s+(\\?[\w\\]+)/.exec(decl[1] ?? '')?.[1];
  return parent ? findMethod(qualify(parent, scope), name, sources, seen) : undefined;
}
