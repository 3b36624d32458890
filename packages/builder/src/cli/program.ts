/**
 * The `idempotency-builder` command tree. One file per command under `commands/`; the builder
 * commands (design, check) come first, the operational ones (stuck, release, purge, stats) slot
 * in beside them with one `register…Command` line each.
 */
import { Command } from 'commander';
import { registerCheckCommand } from './commands/check.js';
import { registerDesignCommand } from './commands/design.js';

/**
 * The program with every command registered.
 * @example await createProgram().parseAsync(['node', 'idempotency-builder', 'check', 'docs/idempotency-design.html']);
 */
export function createProgram(): Command {
  const program = new Command('idempotency-builder')
    .description('Design and run idempotency: make critical actions safe to retry.')
    .showHelpAfterError();
  registerDesignCommand(program);
  registerCheckCommand(program);
  return program;
}
