/**
 * `idempotency-builder inspect [dir]`: the inspector's findings without a design — entry points
 * with full paths and `path:line`, fields, duplicate cost, providers and their keys, consumers,
 * schedules, existing protection — as text or, with `--json`, machine-readable.
 */
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import pc from 'picocolors';
import type { Inspection } from '../../inspect/types.js';
import { resolvePath } from '../output-paths.js';

export interface InspectOptions {
  readonly json?: boolean;
}

/**
 * The inspection as the JSON the command prints (internal fields left out).
 * @example JSON.parse(JSON.stringify(inspectionJson(inspection))).endpoints[0].route // '/api/orders'
 */
export function inspectionJson(inspection: Inspection): Record<string, unknown> {
  const seconds = (inspection.scanMs ?? 0) / 1000;
  return {
    dir: inspection.dir,
    filesScanned: inspection.filesScanned,
    filesParsed: inspection.filesParsed ?? inspection.filesScanned,
    scanMs: inspection.scanMs ?? 0,
    filesPerSecond: seconds > 0 ? Math.round(inspection.filesScanned / seconds) : null,
    stack: {
      language: inspection.language ?? null, framework: inspection.framework ?? null, database: inspection.database ?? null,
      broker: inspection.broker ?? null, testFramework: inspection.testFramework ?? null, projectName: inspection.projectName ?? null,
      languageLevel: inspection.languageLevel ?? null,
      ...(inspection.principal ? { principal: inspection.principal } : {}),
    },
    endpoints: inspection.endpoints.map(({ scope: _scope, ...e }) => e),
    paymentProviders: inspection.paymentProviders,
    paymentCalls: inspection.paymentCalls,
    consumers: inspection.consumers,
    schedulers: inspection.schedulers,
    existingProtection: inspection.existingProtection ?? [],
    webhooks: inspection.webhooks.map((w) => `${w.method} ${w.route} (${w.location})`),
    evidence: inspection.evidence,
    notes: inspection.notes,
  };
}

function printText(inspection: Inspection): void {
  const out = (line = ''): void => {
    process.stdout.write(`${line}\n`);
  };
  const stack = [inspection.language, inspection.framework, inspection.database, inspection.broker].filter(Boolean).map((f) => `${f?.value} (${f?.location})`);
  out(pc.bold(`Stack: ${stack.join(', ') || 'not determined'}`));
  if (inspection.principal) out(`  principal: ${inspection.principal.value} ${pc.dim(inspection.principal.location)}`);
  out(pc.bold(`Mutating entry points (${inspection.endpoints.length}):`));
  for (const e of inspection.endpoints) {
    const fields = e.bodyFields.length > 0 ? e.bodyFields.join(', ') : 'not named (whole body)';
    out(`  ${e.method} ${e.route}  ${pc.dim(e.location)}${e.handler ? `  ${e.handler}` : ''}${e.webhook ? '  [webhook]' : ''}`);
    out(`    cost: ${e.cost?.level ?? '?'} — ${e.cost?.evidence.join('; ') ?? ''}`);
    out(`    body: ${fields}${e.pathParams ? `; path: ${e.pathParams.join(', ')}` : ''}${e.queryFields ? `; query: ${e.queryFields.join(', ')}` : ''}${e.secretFields ? `; secrets: ${e.secretFields.join(', ')}` : ''}`);
    if (e.protection) out(`    already protected: ${e.protection}`);
  }
  out(pc.bold(`Provider calls (${inspection.paymentCalls.length}):`));
  for (const c of inspection.paymentCalls) {
    out(`  ${c.call}  ${pc.dim(c.location)}  ${c.passesIdempotencyKey ? `key ${c.keyExpression ?? 'passed'}${c.keyIssue ? ` — UNSOUND: ${c.keyIssue}` : ''}` : 'NO idempotency key'}`);
  }
  for (const c of inspection.consumers) {
    out(`  consumer ${c.handler ? `${c.handler} ` : ''}${c.broker} ${c.channel ?? ''}  ${pc.dim(c.location)}`);
    if (c.redelivery) out(`    ${c.redelivery}`);
  }
  for (const s of inspection.schedulers) {
    out(`  schedule ${s.mechanism} ${s.schedule ?? ''}${s.handler ? ` → ${s.handler}` : ''}  ${pc.dim(s.location)}`);
    if (s.note) out(`    ${s.note}`);
  }
  for (const e of inspection.existingProtection ?? []) out(`  existing ${e.kind} ${pc.dim(e.location)}: ${e.evidence}\n    protects: ${e.protects}\n    still runs twice: ${e.race}`);
  for (const note of inspection.notes) out(pc.yellow(`  note: ${note}`));
  const seconds = (inspection.scanMs ?? 0) / 1000;
  out(pc.dim(`${inspection.filesScanned} files (${inspection.filesParsed ?? inspection.filesScanned} parsed) in ${seconds.toFixed(2)} s${seconds > 0 ? `, ${Math.round(inspection.filesScanned / seconds)} files/s` : ''}`));
}

/**
 * Runs the inspect command and returns the exit code (0, or 2 when `dir` is not a directory).
 * @example process.exitCode = await runInspect('.', { json: true });
 */
export async function runInspect(dirArg: string | undefined, options: InspectOptions): Promise<number> {
  const dir = resolvePath(dirArg ?? '.');
  if (!(statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false)) {
    process.stderr.write(`${pc.red(`${dirArg ?? '.'} is not a directory.`)}\n`);
    return 2;
  }
  const { inspectCodebase } = await import('../../inspect/inspect-codebase.js');
  const inspection = await inspectCodebase(dir);
  if (options.json) process.stdout.write(`${JSON.stringify(inspectionJson(inspection), null, 2)}\n`);
  else printText(inspection);
  return 0;
}

/**
 * Registers `inspect` on the program.
 * @example registerInspectCommand(new Command('idempotency-builder'));
 */
export function registerInspectCommand(program: Command): void {
  program
    .command('inspect')
    .description('print what the inspector finds: entry points with full paths, fields, duplicate cost, provider calls, consumers, schedules')
    .argument('[dir]', 'the project to inspect', '.')
    .option('--json', 'machine-readable output')
    .action(async (dir: string, options: InspectOptions) => {
      process.exitCode = await runInspect(dir, options);
    });
}
