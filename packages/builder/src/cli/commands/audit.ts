/**
 * `idempotency-builder audit [dir]`: an idempotency check for CI. Exits 1 when a mutating entry
 * point whose duplicate costs money or an outbound effect (with `--strict`, any write) is
 * unprotected, a webhook does not deduplicate by the provider's event id, or a money-moving
 * provider call passes no sound provider key; an allow-list file accepts findings on purpose.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { resolvePath } from '../output-paths.js';

export interface AuditCliOptions {
  readonly allow?: string;
  readonly strict?: boolean;
  readonly json?: boolean;
}

/** Looked up in the audited directory when `--allow` is not given. */
export const DEFAULT_ALLOW_FILE = '.idempotency-allow';

/**
 * Runs the audit and returns the exit code: 0 clean, 1 violations, 2 usage error.
 * @example process.exitCode = await runAudit('.', { allow: '.idempotency-allow' });
 */
export async function runAudit(dirArg: string | undefined, options: AuditCliOptions): Promise<number> {
  const dir = resolvePath(dirArg ?? '.');
  if (!(statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false)) {
    process.stderr.write(`${pc.red(`${dirArg ?? '.'} is not a directory.`)}\n`);
    return 2;
  }
  const allowPath = options.allow ? resolvePath(options.allow) : join(dir, DEFAULT_ALLOW_FILE);
  if (options.allow && !existsSync(allowPath)) {
    process.stderr.write(`${pc.red(`Allow-list ${options.allow} does not exist.`)}\n`);
    return 2;
  }
  const [{ inspectCodebase }, { auditInspection, loadAllowList }] = await Promise.all([
    import('../../inspect/inspect-codebase.js'), import('../../inspect/audit.js'),
  ]);
  const inspection = await inspectCodebase(dir);
  const result = auditInspection(inspection, { includeWrites: options.strict ?? false, allow: loadAllowList(allowPath) });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return result.violations.length > 0 ? 1 : 0;
  }
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  for (const v of result.violations) {
    out(`${pc.red('✗')} ${v.kind}: ${v.subject}  ${pc.dim(v.location)}`);
    out(`    cost: ${v.cost}`);
    out(`    fix:  ${v.fix}`);
  }
  for (const v of result.allowed) out(`${pc.dim(`allowed: ${v.kind}: ${v.subject} (${v.location})`)}`);
  const summary = `${result.checkedEntryPoints} mutating entry point(s), ${result.checkedProviderCalls} provider call(s) checked`;
  if (result.violations.length === 0) {
    out(`${pc.green('✓')} ${summary}; nothing unprotected.`);
    return 0;
  }
  out(`${pc.red('✗')} ${summary}; ${result.violations.length} finding(s). Allow-list one with a line in ${DEFAULT_ALLOW_FILE} (\`POST /path\`, \`path:line\` or a folder/).`);
  return 1;
}

/**
 * Registers `audit` on the program.
 * @example registerAuditCommand(new Command('idempotency-builder'));
 */
export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description('CI check: fail when a costly mutating entry point is unprotected or a payment call lacks a sound provider idempotency key')
    .argument('[dir]', 'the project to audit', '.')
    .option('--allow <file>', `allow-list file (default: ${DEFAULT_ALLOW_FILE} in the project)`)
    .option('--strict', 'also fail on unprotected entry points that only write records')
    .option('--json', 'machine-readable output')
    .action(async (dir: string, options: AuditCliOptions) => {
      process.exitCode = await runAudit(dir, options);
    });
}
