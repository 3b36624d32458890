/**
 * The `idempotency-builder` command tree. One file per command under `commands/`; the builder
 * commands (design, check) come first, then the operational ones against a live store (stuck,
 * release, show, purge, stats).
 */
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerAuditCommand } from './commands/audit.js';
import { registerCheckCommand } from './commands/check.js';
import { registerDesignCommand } from './commands/design.js';
import { registerInspectCommand } from './commands/inspect.js';
import { registerOpsCommands } from './commands/ops.js';
import { registerReconcileCommand } from './commands/reconcile.js';

/** The same relative path from src/cli and dist/cli: the builder's own manifest. */
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/**
 * The program with every command registered.
 * @example await createProgram().parseAsync(['node', 'idempotency-builder', 'check', 'docs/idempotency-design.html']);
 */
export function createProgram(): Command {
  const program = new Command('idempotency-builder')
    .description('Design and run idempotency: make critical actions safe to retry.')
    .version(version, '-v, --version')
    .showHelpAfterError();
  registerDesignCommand(program);
  registerCheckCommand(program);
  registerInspectCommand(program);
  registerAuditCommand(program);
  registerOpsCommands(program);
  registerReconcileCommand(program);
  return program;
}
