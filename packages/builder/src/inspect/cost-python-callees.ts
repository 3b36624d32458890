/**
 * What a Python handler does through code of its own repository, one call deep: a function it
 * imports or defines (`user_create(...)` from `users/services.py`) or a method of a class it builds
 * (`service = FileDirectUploadService(user)`, then `service.start(...)`). Django styleguides keep
 * every write in such a service, so the view's own lines only validate and call.
 */
import { posix } from 'node:path';

/** Reads a file of the repository as lines ([] when absent). */
export type ReadLines = (relPath: string) => readonly string[];
/** What is looked for on one line of a callee (a write, a message). */
export type Probe = (line: string) => RegExpExecArray | null;

export interface CalleeProbe {
  readonly probe: Probe;
  readonly read: ReadLines;
  /** Callee names not looked into (getters and checks). */
  readonly skip?: RegExp;
}

export interface CalleeHit {
  /** How the handler calls it: `user_create` or `FileDirectUploadService.start`. */
  readonly callee: string;
  /** The match inside the callee's body. */
  readonly match: RegExpExecArray;
  /** `path:line` of the match. */
  readonly location: string;
}

/** Callees looked into per handler: a handler calls a handful of services, not more. */
const MAX_CALLEES = 24;
/** Ancestor directories of the handler's file tried as the root of an absolute import (a `src/` layout). */
const MAX_DEPTH = 6;

interface Target {
  readonly module: string;
  /** The name defined in the module; undefined for a module alias (`from . import services`). */
  readonly name?: string;
}

const indentOf = (line: string | undefined): number => (line ?? '').length - (line ?? '').trimStart().length;
/** A line that still belongs to a block opened at `indent`: blank, or deeper. */
const inside = (line: string | undefined, indent: number): boolean => /^\s*$/.test(line ?? '') || indentOf(line) > indent;

/** The module files a dotted import may be, relative to the repository root. */
function moduleFiles(file: string, spec: string): string[] {
  const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
  const path = spec.slice(dots).split('.').filter(Boolean).join('/');
  const bases: string[] = [];
  if (dots > 0) {
    let dir = posix.dirname(file);
    for (let i = 1; i < dots; i += 1) dir = posix.dirname(dir);
    bases.push(dir);
  } else {
    // Absolute imports resolve from the source root, which may be any ancestor of this file.
    let dir = posix.dirname(file);
    for (let i = 0; i < MAX_DEPTH && dir !== '.' && dir !== '/'; i += 1) {
      bases.push(dir);
      dir = posix.dirname(dir);
    }
    bases.push('.');
  }
  return bases.flatMap((base) => [posix.join(base, `${path}.py`), posix.join(base, path, '__init__.py')]);
}

/** Local name → what it refers to, from the file's `from x import a, b as c` and `import x.y as z` lines. */
function importsOf(text: string): Map<string, Target> {
  const out = new Map<string, Target>();
  for (const m of text.matchAll(/^from\s+([.\w]+)\s+import\s+(\([^)]*\)|[^\n]+)/gm)) {
    for (const part of (m[2] ?? '').replace(/[()\\]/g, ' ').split(',')) {
      const names = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(part.replace(/#.*$/gm, ''));
      if (!names?.[1]) continue;
      // `from pkg import services` names a module, `from pkg.services import user_create` a definition: both are tried.
      out.set(names[2] ?? names[1], { module: m[1] ?? '', name: names[1] });
    }
  }
  for (const m of text.matchAll(/^import\s+([\w.]+)\s+as\s+(\w+)/gm)) out.set(m[2] ?? '', { module: m[1] ?? '' });
  return out;
}

/** The body of the `def name(` in `lines[from, to)` at least `minIndent` deep (exactly at column 0 when `topLevel`), with its first line (0-based). */
function defBody(lines: readonly string[], name: string, from: number, to: number, minIndent: number, topLevel: boolean): { start: number; lines: readonly string[] } | undefined {
  const header = new RegExp(`^(\\s*)(?:async\\s+)?def\\s+${name}\\s*\\(`);
  for (let i = from; i < to; i += 1) {
    const m = header.exec(lines[i] ?? '');
    if (!m || (m[1] ?? '').length < minIndent || (topLevel && (m[1] ?? '').length > 0)) continue;
    const indent = (m[1] ?? '').length;
    // The header may span lines (`def f(\n    *, a,\n) -> T:`): the body starts after the line that ends it with `:`.
    let start = i;
    while (start < to - 1 && !/:\s*(#.*)?$/.test(lines[start] ?? '')) start += 1;
    let end = start + 1;
    while (end < to && inside(lines[end], indent)) end += 1;
    return { start: start + 1, lines: lines.slice(start + 1, end) };
  }
  return undefined;
}

/** The line range of `class Name` in `lines`, with the indent its methods sit deeper than. */
function classRange(lines: readonly string[], name: string): { from: number; to: number; indent: number } | undefined {
  const header = new RegExp(`^(\\s*)class\\s+${name}\\b`);
  const at = lines.findIndex((line) => header.test(line));
  if (at < 0) return undefined;
  const indent = indentOf(lines[at]);
  let to = at + 1;
  while (to < lines.length && inside(lines[to], indent)) to += 1;
  return { from: at + 1, to, indent: indent + 1 };
}

/**
 * The first match of `probe` in a same-repository function or method the handler's `body` calls.
 * @example probeCallees('users/apis.py', apisText, '    user = user_create(**data)', { probe: (line) => /create_user\(/.exec(line), read })
 * // { callee: 'user_create', location: 'users/services.py:12', match: [...] }
 */
export function probeCallees(file: string, fileText: string, body: string, { probe, read, skip }: CalleeProbe): CalleeHit | undefined {
  const imports = importsOf(fileText);
  // `service = FileDirectUploadService(request.user)`: the variable stands for an instance of that class.
  const instances = new Map<string, string>();
  for (const m of body.matchAll(/^\s*(\w+)\s*=\s*([A-Z]\w*)\s*\(/gm)) instances.set(m[1] ?? '', m[2] ?? '');
  const calls: { owner?: string; name: string }[] = [];
  for (const m of body.matchAll(/(?<![\w.])(?:(\w+)(?:\([^()\n]*\))?\.)?(\w+)\s*\(/g)) {
    if (calls.length >= MAX_CALLEES) break;
    const name = m[2] ?? '';
    const owner = m[1];
    if (skip?.test(name)) continue;
    if (!calls.some((c) => c.owner === owner && c.name === name)) calls.push({ ...(owner ? { owner } : {}), name });
  }
  for (const call of calls) {
    const hit = probeCallee(call, file, imports, instances, probe, read);
    if (hit) return hit;
  }
  return undefined;
}

/** Where a call's definition is: the files it may be in, the class (for a method) and the name of the `def`. */
function definitionOf(call: { owner?: string; name: string }, file: string, imports: Map<string, Target>, instances: Map<string, string>):
  { files: string[]; className?: string; def: string; label: string } | undefined {
  if (!call.owner) {
    // `user_create(...)`: an imported function, or one defined in the handler's own file.
    const target = imports.get(call.name);
    return target ? { files: moduleFiles(file, target.module), def: target.name ?? call.name, label: call.name } : { files: [file], def: call.name, label: call.name };
  }
  const className = instances.get(call.owner) ?? (/^[A-Z]/.test(call.owner) ? call.owner : undefined);
  if (className) {
    // `service.start(...)` on `service = FileDirectUploadService(...)`, or `Service.run(...)`: a method of that class.
    const target = imports.get(className);
    return { files: target ? moduleFiles(file, target.module) : [file], className: target?.name ?? className, def: call.name, label: `${className}.${call.name}` };
  }
  // `services.user_create(...)` after `from pkg import services` or `import pkg.services as services`.
  const target = imports.get(call.owner);
  if (!target) return undefined;
  return { files: moduleFiles(file, target.name ? `${target.module}.${target.name}` : target.module), def: call.name, label: `${call.owner}.${call.name}` };
}

function probeCallee(call: { owner?: string; name: string }, file: string, imports: Map<string, Target>, instances: Map<string, string>, probe: Probe, read: ReadLines): CalleeHit | undefined {
  // The handler's own class: `self.x()` is another handler or a helper the span does not cover, left out as before.
  if (call.owner === 'self' || call.owner === 'cls') return undefined;
  const where = definitionOf(call, file, imports, instances);
  if (!where) return undefined;
  for (const candidate of where.files) {
    const lines = read(candidate);
    if (lines.length === 0) continue;
    const range = where.className ? classRange(lines, where.className) : { from: 0, to: lines.length, indent: 0 };
    // A function is a top-level `def` (indent 0); a method sits inside its class.
    const found = range ? defBody(lines, where.def, range.from, range.to, range.indent, !where.className) : undefined;
    if (!found) continue;
    for (let i = 0; i < found.lines.length; i += 1) {
      // A comment may quote code (`# then obj.save()`); it does nothing.
      const match = /^\s*#/.test(found.lines[i] ?? '') ? null : probe(found.lines[i] ?? '');
      if (match) return { callee: where.label, match, location: `${candidate}:${found.start + i + 1}` };
    }
    return undefined;
  }
  return undefined;
}
