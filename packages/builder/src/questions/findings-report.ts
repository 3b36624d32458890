/**
 * The findings as the user sees them before any question: the stack and every critical action,
 * each with `path:line`, plus what was found but is not protected by default and why.
 */
import type { Inspection } from '../inspect/types.js';
import type { Proposals } from './propose.js';

function row(label: string, value: string, location?: string): string {
  return `  ${label.padEnd(34)} ${value}${location ? `  ${location}` : ''}`;
}

/**
 * Plain-text report of an inspection (no colours: it goes to notes, logs and tests alike).
 * @example console.log(formatFindings(inspection, proposeFromInspection(inspection)))
 */
export function formatFindings(inspection: Inspection, proposals: Proposals): string {
  const lines: string[] = [`Inspected ${inspection.filesScanned} file(s) in ${inspection.dir}${inspection.truncated ? ' (bounded: not every file was read)' : ''}`];
  lines.push('', 'Stack');
  const stack: Array<[string, { value: string; location: string; evidence: string } | undefined]> = [
    ['language', inspection.language], ['framework', inspection.framework], ['database', inspection.database],
    ['message broker', inspection.broker], ['test framework', inspection.testFramework],
  ];
  for (const [label, finding] of stack) {
    lines.push(finding ? row(label, finding.value, `${finding.location} (${finding.evidence})`) : row(label, 'not found'));
  }
  const providers = inspection.paymentProviders;
  lines.push(row('payment providers', providers.length > 0 ? [...new Set(providers.map((p) => p.value))].join(', ') : 'none found', providers[0]?.location));
  if (inspection.endpoints.length > 0) {
    lines.push('', 'Mutating HTTP endpoints');
    for (const e of inspection.endpoints) lines.push(row(`${e.method} ${e.route}${e.operation ? ` ${e.operation}` : e.serverAction ? ` server action ${e.serverAction.name}` : ''}${e.webhook ? ' (webhook)' : ''}`, e.framework, e.location));
  }
  if (inspection.paymentCalls.length > 0) {
    lines.push('', 'Payment SDK calls');
    for (const c of inspection.paymentCalls) {
      lines.push(row(c.call, c.passesIdempotencyKey ? `${c.provider}, passes a key` : `${c.provider}, NO idempotency key passed`, c.location));
    }
  }
  if (inspection.consumers.length > 0) {
    lines.push('', 'Message consumers');
    for (const c of inspection.consumers) {
      lines.push(row(`${c.handler ? `${c.handler} ` : ''}${c.broker}${c.channel ? ` "${c.channel}"` : ''}`, c.evidence, c.location));
      if (c.redelivery) lines.push(`    ${c.redelivery}`);
    }
  }
  if (inspection.schedulers.length > 0) {
    lines.push('', 'Scheduled jobs');
    for (const s of inspection.schedulers) {
      lines.push(row(`${s.mechanism}${s.handler ? ` → ${s.handler}` : ''}`, s.schedule ?? '', s.location));
      if (s.note) lines.push(`    ${s.note}`);
    }
  }
  if ((inspection.existingProtection ?? []).length > 0) {
    lines.push('', 'Existing deduplication');
    for (const e of inspection.existingProtection ?? []) lines.push(row(e.kind, e.evidence, e.location), `    still runs twice: ${e.race}`);
  }
  if (proposals.actions.length > 0) {
    lines.push('', 'Actions to protect');
    for (const { action } of proposals.actions) {
      lines.push(row(action.name, `${action.kind}${action.provider ? `, ${action.provider}` : ''}; fingerprint: ${action.significantFields.length > 0 ? action.significantFields.join(', ') : 'the whole body (no fields named in the code)'}`, action.location));
    }
  } else {
    lines.push('', 'No mutating endpoint, consumer, webhook or scheduled job was found.');
  }
  if (proposals.skipped.length > 0) {
    lines.push('', 'Found but not protected by default');
    for (const line of proposals.skipped) lines.push(`  ${line}`);
  }
  for (const note of inspection.notes) lines.push('', `Note: ${note}`);
  return lines.join('\n');
}
