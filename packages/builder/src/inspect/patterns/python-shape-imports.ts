/**
 * A Python file's body models named through its imports: `from app.schemas.user import UserCreate`,
 * `from .schemas import UserCreate as UC`, `import app.schemas as s` then `s.UserCreate`, or a class
 * of the file itself — each qualified by the module files the import may name (shape-refs.ts), so
 * that a handler takes its own module's `UserCreate` when two modules declare one. A package's
 * `__init__.py` re-exports what it imports (one `from .user import UserCreate` or `import *`).
 */
import { posix } from 'node:path';
import { moduleEntry, qualifiedName, reexportKey } from '../shape-refs.js';
import type { EndpointFinding, ScanResult } from '../types.js';

/** What a local name is bound to: a module (`import a.b as s`), or a name in one (`from a import B`). */
interface PyBinding {
  /** Dotted, leading dots kept for a relative import (`.schemas`, `..`, `app.schemas`). */
  readonly module: string;
  /** The imported name, for `from module import name`. */
  readonly name?: string;
}

interface PyImports {
  readonly bindings: Map<string, PyBinding>;
  /** Modules imported whole (`from .user import *`). */
  readonly stars: string[];
}

/** What one file knows of its names: its imports, and the classes it declares that are no request shape. */
interface PyScope extends PyImports {
  readonly plainClasses: ReadonlySet<string>;
}

/** `from m import (a, b as c)`, `from . import x`, at any indentation (imports under `try:`). */
const FROM_IMPORT = /^[ \t]*from[ \t]+(\.+[\w.]*|[\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*(?:\\\n[^\n]*)*)/gm;
const PLAIN_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm;

/**
 * The imports of one file.
 * @example pythonImports('from .schemas import UserCreate as UC').bindings.get('UC') // { module: '.schemas', name: 'UserCreate' }
 */
export function pythonImports(text: string): PyImports {
  const bindings = new Map<string, PyBinding>();
  const stars: string[] = [];
  for (const match of text.matchAll(FROM_IMPORT)) {
    const module = match[1] ?? '';
    // Comments inside a parenthesised list, and line continuations, are not names.
    const names = (match[2] ?? '').replace(/#[^\n]*/g, '').replace(/[()\\]/g, '');
    if (names.trim() === '*') stars.push(module);
    for (const part of names.split(',')) {
      const one = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
      if (one?.[1]) bindings.set(one[2] ?? one[1], { module, name: one[1] });
    }
  }
  for (const match of text.matchAll(PLAIN_IMPORT)) {
    for (const part of (match[1] ?? '').split(',')) {
      const one = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
      if (!one?.[1]) continue;
      // `import a.b` binds `a`: `a.b.X` names the module `a.b`.
      if (one[2]) bindings.set(one[2], { module: one[1] });
      else bindings.set(one[1].split('.')[0] ?? one[1], { module: one[1].split('.')[0] ?? one[1] });
    }
  }
  return { bindings, stars };
}

/**
 * The files a module may be: relative to the importing file's package, or — absolute — below any
 * folder above it (the folder the app runs from is not known; the nearest comes first).
 * @example moduleFiles('backend/routers/users.py', 'schemas.users') // ['backend/routers/schemas/users.py', …, 'backend/schemas/users.py', …]
 */
export function moduleFiles(relPath: string, module: string): string[] {
  const dots = /^\.*/.exec(module)?.[0].length ?? 0;
  const path = module.slice(dots).split('.').filter(Boolean).join('/');
  const forms = (base: string): string[] => (path
    ? [posix.join(base, `${path}.py`), posix.join(base, path, '__init__.py')]
    : [posix.join(base, '__init__.py')]);
  let dir = posix.dirname(relPath);
  if (dots > 0) {
    for (let up = 1; up < dots; up += 1) dir = posix.dirname(dir);
    return forms(dir);
  }
  const out: string[] = [];
  for (; ; dir = posix.dirname(dir)) {
    out.push(...forms(dir));
    if (dir === '.' || dir === '/' || dir === '') return out;
  }
}

/** `module` + `.name`, relative dots kept (`from . import schemas` → `.schemas`). */
const submodule = (module: string, name: string): string => (module.endsWith('.') ? `${module}${name}` : `${module}.${name}`);

/**
 * A class name as the file writes it (`UserCreate`, `UC`, `s.UserCreate`), qualified by the files
 * its import may name; a name no import binds is the file's own or one a star import brings.
 * Undefined for a class the file declares that is no shape (`class TimestampMixin:`): another
 * module's shape of that name is not this one.
 */
function qualify(relPath: string, imports: PyScope, written: string): string | undefined {
  const parts = written.split('.');
  const name = parts.pop() ?? written;
  const [head, ...rest] = parts;
  if (head !== undefined) {
    const bound = imports.bindings.get(head);
    if (!bound) return name;
    const module = [bound.name ? submodule(bound.module, bound.name) : bound.module, ...rest].join('.');
    return qualifiedName(name, moduleFiles(relPath, module));
  }
  const bound = imports.bindings.get(name);
  if (bound?.name) return qualifiedName(bound.name, moduleFiles(relPath, bound.module));
  if (bound) return name;
  if (imports.plainClasses.has(name)) return undefined;
  return qualifiedName(name, [relPath, ...imports.stars.flatMap((module) => moduleFiles(relPath, module))]);
}

/**
 * The scan of one file with its shapes also kept under `Name@file`, their bases and its endpoints'
 * body types qualified through its imports, and — for a package's `__init__.py` — the names and
 * modules it re-exports.
 * @example qualifyPythonShapes('app/api/users.py', 'from app.schemas.users import UserCreate\n…', scanPython(…)).findings.endpoints[0].bodyType // 'UserCreate@app/api/app/schemas/users.py,…'
 */
export function qualifyPythonShapes(relPath: string, text: string, result: ScanResult): ScanResult {
  const classes = [...text.matchAll(/^class (\w+)/gm)].map((m) => m[1] ?? '').filter((name) => !result.shapes.has(name));
  const imports: PyScope = { ...pythonImports(text), plainClasses: new Set(classes) };
  const shapes = new Map<string, string[]>();
  for (const [name, fields] of result.shapes) {
    const own = fields.flatMap((field) => {
      if (!field.startsWith('...')) return [field];
      const base = qualify(relPath, imports, field.slice(3));
      return base ? [`...${base}`] : [];
    });
    shapes.set(name, own);
    shapes.set(`${name}@${relPath}`, own);
  }
  if (posix.basename(relPath) === '__init__.py') {
    for (const [local, bound] of imports.bindings) {
      const files = bound.name ? moduleFiles(relPath, bound.module).filter((file) => file !== relPath) : [];
      if (files.length > 0 && !result.shapes.has(local)) shapes.set(`${local}@${relPath}`, [`...${qualifiedName(bound.name ?? local, files)}`]);
    }
    const stars = imports.stars.map((module) => moduleEntry(moduleFiles(relPath, module)));
    if (stars.length > 0) shapes.set(reexportKey(relPath), stars);
  }
  const endpoints = result.findings.endpoints.map((endpoint): EndpointFinding => {
    if (!endpoint.bodyType) return endpoint;
    const { bodyType, ...rest } = endpoint;
    const types = bodyType.split('|').flatMap((type) => qualify(relPath, imports, type) ?? []);
    return types.length > 0 ? { ...rest, bodyType: types.join('|') } : rest;
  });
  return { ...result, shapes, findings: { ...result.findings, endpoints } };
}
