/**
 * Reads the template files that ship in the package (packages/builder/templates/<lang>/, listed in
 * package.json "files"). Located from this module through the package's own name: the module
 * resolver finds the package root the same way from src/ (tests), from the bundled dist/ chunks
 * (whose depth differs) and from an installed copy — no directory is searched by hand.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** packages/builder/templates/ (exports lists "./package.json", so this resolves everywhere). */
const TEMPLATES = join(dirname(createRequire(import.meta.url).resolve('idempotency-builder/package.json')), 'templates');

/**
 * One template file's text, exactly as committed.
 * @example template('go', 'engine.go').startsWith('// Idempotency engine')
 */
export function template(language: 'go' | 'python' | 'java', file: string): string {
  return readFileSync(join(TEMPLATES, language, file), 'utf8');
}
