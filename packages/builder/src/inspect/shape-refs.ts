/**
 * Body shapes named through imports. Two modules of one project often declare the same name (a
 * `UserCreate` in schemas/users.py and another in schemas/auth.py); a handler's body is the one its
 * own file imports, so scanners write a body type, and a shape's bases, qualified by the files the
 * name may come from, and every shape is also kept under `Name@file` of the file declaring it.
 *
 * The notation (internal; a body type is shown by its bare name):
 * - `A|B`: candidates, the first that has fields wins (a Python handler's typed parameters).
 * - `Name`: the first declaration in walk order — the lookup when nothing better is known.
 * - `Name@where`: the shape a file declares (or, for Go, a package folder: `tokenRequest@auth/pwdless`).
 * - `Name@f1,f2`: the import's candidate files in order (`.ts`, `/index.ts`, …); the first that
 *   declares or re-exports Name wins, else the bare `Name`, so an import the inspector cannot
 *   follow (a package, a dynamic path) finds what the bare name finds.
 * - `ns.Name@f`: Name of the module `f` re-exports as `ns` (`module.exports.userValidation = require(…)`).
 * - A shape's field `...list!a!b` extends the first of `list` that resolves, less `a` and `b`.
 * - `*@f` and `ns.*@f` list the modules (`m1,m2` candidates each) `f` re-exports whole
 *   (`export * from './m'`, `from .user import *`) or as `ns`; a named re-export
 *   (`export { X } from './m'`) is a shape `X@f` whose one field is `...X@m1,m2`.
 */

export type Shapes = ReadonlyMap<string, readonly string[]>;

/** Sees every key a lookup reads, so that deferred files that may hold it can be parsed (shape-index.ts). */
export type Touch = (key: string) => void;

/** `...Name!a` (TS `OmitType(Name, ['a'])`) stands for Name's fields but `a`. */
export const OMITTED = '!';
const CANDIDATES = '|';
const FILES = ',';
/** Re-export hops followed from one file to the next (`index.ts` → `dto/index.ts` → the class). */
const MAX_HOPS = 4;
/** Nested `...Base` levels followed (cycles are cut before). */
const MAX_DEPTH = 16;

/**
 * A name qualified by the files it may be declared or re-exported in, likeliest first.
 * @example qualifiedName('UserCreate', ['app/schemas/user.py', 'app/schemas/user/__init__.py']) // 'UserCreate@app/schemas/user.py,app/schemas/user/__init__.py'
 */
export function qualifiedName(name: string, files: readonly string[]): string {
  return files.length > 0 ? `${name}@${[...new Set(files)].join(FILES)}` : name;
}

/**
 * The key under which a file lists the modules it re-exports whole, or as the namespace `ns`.
 * @example reexportKey('src/dto/index.ts') // '*@src/dto/index.ts'
 */
export function reexportKey(file: string, namespace?: string): string {
  return `${namespace ? `${namespace}.` : ''}*@${file}`;
}

/**
 * A module's candidate files as a re-export entry lists them.
 * @example moduleEntry(['src/m.ts', 'src/m/index.ts']) // 'src/m.ts,src/m/index.ts'
 */
export const moduleEntry = (files: readonly string[]): string => [...new Set(files)].join(FILES);

/**
 * The name a candidate is shown by: a qualified one without its qualifier and namespace, a bare
 * one as written (a C# `Create.Command` is the nested type's own name).
 * @example shapeName('userValidation.createUser@src/validations/index.js') // 'createUser'
 */
export function shapeName(candidate: string): string {
  const at = candidate.indexOf('@');
  if (at < 0) return candidate;
  const name = candidate.slice(0, at);
  return name.slice(name.lastIndexOf('.') + 1);
}

/** `Name` in `file`: declared there, or reached through the file's re-exports. */
function inModule(name: string, file: string, shapes: Shapes, touch: Touch, hops: number): readonly string[] | undefined {
  const key = `${name}@${file}`;
  touch(key);
  const own = shapes.get(key);
  if (own) return own;
  if (hops >= MAX_HOPS) return undefined;
  const dot = name.indexOf('.');
  const via = reexportKey(file, dot < 0 ? undefined : name.slice(0, dot));
  for (const modules of shapes.get(via) ?? []) {
    for (const module of modules.split(FILES)) {
      const found = inModule(name.slice(dot + 1), module, shapes, touch, hops + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** The entries one candidate stands for, before its bases are expanded. */
function entriesOf(candidate: string, shapes: Shapes, touch: Touch): readonly string[] | undefined {
  touch(candidate);
  const exact = shapes.get(candidate);
  const at = candidate.indexOf('@');
  if (exact || at < 0) return exact;
  const name = candidate.slice(0, at);
  for (const file of candidate.slice(at + 1).split(FILES)) {
    const found = inModule(name, file, shapes, touch, 0);
    if (found) return found;
  }
  // The import led nowhere the inspector could read: the bare name, as before imports were followed.
  const bare = shapeName(candidate);
  touch(bare);
  return shapes.get(bare);
}

function expand(list: string, shapes: Shapes, touch: Touch, stack: Set<string>): { candidate: string; fields: string[] } | undefined {
  if (stack.size > MAX_DEPTH) return undefined;
  for (const candidate of list.split(CANDIDATES)) {
    if (!candidate || stack.has(candidate)) continue;
    const entries = entriesOf(candidate, shapes, touch);
    if (!entries) continue;
    stack.add(candidate);
    const fields = entries.flatMap((entry) => {
      if (!entry.startsWith('...')) return [entry];
      const [base = '', ...omitted] = entry.slice(3).split(OMITTED);
      return (expand(base, shapes, touch, stack)?.fields ?? []).filter((field) => !omitted.includes(field));
    });
    stack.delete(candidate);
    if (fields.length > 0) return { candidate, fields: [...new Set(fields)] };
  }
  return undefined;
}

/**
 * The fields a body type stands for, every `...Base` expanded (cycles cut), and the candidate
 * that gave them; undefined when no candidate is a shape with fields.
 * @example resolveShape('UserCreate@app/schemas/users.py|UserCreate', shapes) // { candidate: 'UserCreate@app/schemas/users.py', fields: ['email', 'password'] }
 */
export function resolveShape(list: string, shapes: Shapes, touch: Touch = () => undefined): { candidate: string; fields: string[] } | undefined {
  return expand(list, shapes, touch, new Set());
}
