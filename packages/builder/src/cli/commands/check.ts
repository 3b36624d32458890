/**
 * `idempotency-builder check FILE`: validates a design document (HTML or Markdown) against the
 * spec's seven testable constraints, and its claims against the code written beside it and the
 * runtime's definitions; exit code 1 lists every violation with its line.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import pc from 'picocolors';
import { displayPath, resolvePath } from '../output-paths.js';

/**
 * The document's format from its extension, else from its first bytes.
 * @example documentFormat('docs/design.md', '# Design') // 'md'
 */
export function documentFormat(path: string, text: string): 'html' | 'md' {
  if (/\.(html?|xhtml)$/i.test(path)) return 'html';
  if (/\.(md|markdown)$/i.test(path)) return 'md';
  return /^\s*(<!doctype html|<html)/i.test(text) ? 'html' : 'md';
}

/**
 * Runs the check and returns the exit code: 0 when every constraint holds, 1 otherwise, 2 when
 * the file cannot be read.
 * @example process.exitCode = await runCheck('docs/idempotency-design.html');
 */
export async function runCheck(file: string, { code, artifacts = true }: { code?: string; artifacts?: boolean } = {}): Promise<number> {
  const { checkDocument } = await import('../../check/index.js');
  const { checkAgainstArtifacts, findCodeDir } = await import('../../check/artifact-claims.js');
  const path = resolvePath(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    process.stderr.write(`${pc.red(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)}\n`);
    return 2;
  }
  const format = documentFormat(path, text);
  const violations = checkDocument(text, format);
  const codeDir = code ? resolvePath(code) : findCodeDir(path, text, format);
  const truth = artifacts ? checkAgainstArtifacts(text, format, codeDir) : [];
  if (violations.length === 0 && truth.length === 0) {
    const against = artifacts && codeDir ? ` and agrees with the code in ${displayPath(codeDir)}` : '';
    process.stdout.write(`${pc.green('✓')} ${displayPath(path)} meets all seven testable constraints${against}.\n`);
    return 0;
  }
  if (violations.length > 0) {
    process.stdout.write(`${pc.red('✗')} ${displayPath(path)} violates ${violations.length} constraint(s):\n`);
    for (const violation of violations) process.stdout.write(`  - ${violation.constraint}: ${violation.message}\n`);
  }
  if (truth.length > 0) {
    process.stdout.write(`${pc.red('✗')} ${displayPath(path)} disagrees with ${codeDir ? displayPath(codeDir) : 'its code'} or the runtime in ${truth.length} place(s):\n`);
    for (const v of truth) process.stdout.write(`  - ${displayPath(path)}:${v.line}: ${v.check}: ${v.message}\n`);
  }
  return 1;
}

/**
 * Registers `check` on the program.
 * @example registerCheckCommand(new Command('idempotency-builder'));
 */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description("validate a design document against the spec's seven testable constraints and against the code written beside it")
    .argument('<file>', 'the HTML or Markdown design document')
    .option('--code <dir>', 'the generated code to check the document against (default: found beside the document)')
    .option('--no-artifacts', 'check the structure only, not the claims against the code')
    .action(async (file: string, options: { code?: string; artifacts?: boolean }) => {
      process.exitCode = await runCheck(file, { ...(options.code ? { code: options.code } : {}), artifacts: options.artifacts !== false });
    });
}
