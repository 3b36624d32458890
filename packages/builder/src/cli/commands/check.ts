/**
 * `idempotency-builder check FILE`: validates an existing design document (HTML or Markdown)
 * against the spec's seven testable constraints; exit code 1 lists every violation.
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
export async function runCheck(file: string): Promise<number> {
  const { checkDocument } = await import('../../check/index.js');
  const path = resolvePath(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    process.stderr.write(`${pc.red(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)}\n`);
    return 2;
  }
  const violations = checkDocument(text, documentFormat(path, text));
  if (violations.length === 0) {
    process.stdout.write(`${pc.green('✓')} ${displayPath(path)} meets all seven testable constraints.\n`);
    return 0;
  }
  process.stdout.write(`${pc.red('✗')} ${displayPath(path)} violates ${violations.length} constraint(s):\n`);
  for (const violation of violations) process.stdout.write(`  - ${violation.constraint}: ${violation.message}\n`);
  return 1;
}

/**
 * Registers `check` on the program.
 * @example registerCheckCommand(new Command('idempotency-builder'));
 */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description("validate a design document against the spec's seven testable constraints")
    .argument('<file>', 'the HTML or Markdown design document')
    .action(async (file: string) => {
      process.exitCode = await runCheck(file);
    });
}
