/**
 * Where the builder writes, and the rule that it never overwrites a user's file unless `--force`
 * says so — checked before any question is asked, so a refusal costs the user nothing.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Answers } from '../answers.js';

/**
 * `docs/idempotency-design.html` (or `.md`) inside the project.
 * @example defaultOutPath('/srv/api', 'md') // '/srv/api/docs/idempotency-design.md'
 */
export function defaultOutPath(dir: string, format: Answers['format']): string {
  return join(dir, 'docs', `idempotency-design.${format === 'md' ? 'md' : 'html'}`);
}

/**
 * The generated code's folder when `--code` names none.
 * @example defaultCodeDir('/srv/api') // '/srv/api/idempotency'
 */
export function defaultCodeDir(dir: string): string {
  return join(dir, 'idempotency');
}

/**
 * Resolves a user-given path: absolute as is, relative to the current directory otherwise (the
 * way every CLI reads a path argument).
 * @example resolvePath('out/design.html') // '/home/me/out/design.html'
 */
export function resolvePath(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path);
}

/** The document exists and `--force` was not given. */
export class RefusedOverwriteError extends Error {
  constructor(readonly path: string) {
    super(`${displayPath(path)} already exists; the builder never overwrites your files. Pass --force to replace it, or --out PATH to write elsewhere.`);
    this.name = 'RefusedOverwriteError';
  }
}

/**
 * Throws `RefusedOverwriteError` when `path` exists and `force` is false.
 * @example assertWritable('/srv/api/docs/idempotency-design.html', false)
 */
export function assertWritable(path: string, force: boolean): void {
  if (!force && existsSync(path)) throw new RefusedOverwriteError(path);
}

/**
 * A path relative to the current directory when that is shorter, for messages.
 * @example displayPath('/home/me/api/docs/x.html') // 'api/docs/x.html' from /home/me
 */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && rel.length < path.length ? rel : path;
}
