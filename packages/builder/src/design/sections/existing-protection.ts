/**
 * Front matter: the deduplication the repository already does (read-then-check code, unique
 * constraints, processed-events tables, locks, provider keys), each with its location, what it
 * protects and the race that remains — so the design builds on it rather than ignoring it.
 */
import { code, collapse, para, plain, rich, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { DesignContext } from './context.js';

const KIND = {
  'read-then-check': 'read, then insert',
  'unique-constraint': 'unique constraint',
  'processed-events': 'processed-events table',
  lock: 'lock',
  'provider-key': 'provider key',
  'idempotency-key': 'key in the handler',
} as const;

/** Above this many rows the table is folded, with the read-then-check findings (the races) kept in view. */
const FOLD_ROWS = 8;

/**
 * The existing-protection part, or nothing when the code was not inspected.
 * @example existingProtectionSection({ plan, artifacts })?.title // 'Existing deduplication in the code'
 */
export function existingProtectionSection(ctx: DesignContext): Section | undefined {
  const found = ctx.plan.answers.existingProtection;
  if (!found) return undefined;
  const title = 'Existing deduplication in the code';
  if (found.length === 0) {
    return section('existing-protection', title, [
      para(txt`The inspector found no deduplication of its own in the code: no lookup by an event or idempotency key before an insert, no unique constraint on such a column, no processed-events table, lock or provider key.`),
    ]);
  }
  const races = found.filter((f) => f.kind === 'read-then-check').length;
  const rows = found.map((f) => [[code(f.location)], plain(KIND[f.kind]), [code(f.evidence)], rich(f.protects), rich(f.race)]);
  const grid = table(['Where', 'What', 'Code', 'Protects', 'What still runs twice'], rows);
  return section('existing-protection', title, [
    para(txt`Found ${String(found.length)} piece(s) of deduplication already in the code${races > 0 ? `, ${races} of them a read-then-check` : ''}, each with what it stops today and what still runs twice. The claim this design adds is one atomic insert under a unique key, which closes a read-then-check race; unique constraints on business rows stay useful as a second guard.`),
    found.length > FOLD_ROWS ? collapse(grid, `All ${found.length} findings, with the race each one leaves`) : grid,
  ]);
}
