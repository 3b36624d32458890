/**
 * Drives the generated named statements the way the generated standalone stores do: insert-if-
 * absent, fetch, fenced compare-and-set reclaim. Used to prove the statements against real servers.
 */
import { parseQueriesFile, type NamedStatement } from '../../../src/builder/emit/sql/statements.js';

export interface Outcome {
  readonly rows: Record<string, unknown>[];
  readonly affected: number;
}

/** Runs one named statement with named parameters. */
export type Execute = (statement: NamedStatement, params: Record<string, unknown>) => Promise<Outcome>;

export interface ClaimInput {
  readonly key: string;
  readonly scope: string;
  readonly fingerprint: string;
  readonly lease_ms: number;
  readonly ttl_ms: number;
}

export type ClaimAnswer = { readonly outcome: 'claimed'; readonly lockVersion: number } | { readonly outcome: 'existing'; readonly record: Record<string, unknown> };

const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

export function statementsOf(queriesFile: string): Record<string, NamedStatement> {
  return Object.fromEntries(parseQueriesFile(queriesFile).map((statement) => [statement.name, statement]));
}

/**
 * The three-statement claim: `returning` says whether applied writes come back as rows (PostgreSQL,
 * SQLite) or only as an affected-row count (MySQL/MariaDB).
 */
export async function claim(exec: Execute, statements: Record<string, NamedStatement>, input: ClaimInput, returning: boolean): Promise<ClaimAnswer> {
  const applied = (outcome: Outcome) => (returning ? outcome.rows.length > 0 : outcome.affected === 1);
  for (let attempt = 0; attempt < 8; attempt++) {
    if (applied(await exec(statements.claim_insert as NamedStatement, { ...input }))) return { outcome: 'claimed', lockVersion: 1 };
    const [record] = (await exec(statements.fetch as NamedStatement, { key: input.key, scope: input.scope })).rows;
    if (!record) continue;
    const same = String(record.fingerprint) === input.fingerprint;
    if (truthy(record.expired) || (truthy(record.lease_over) && same)) {
      const version = Number(record.lock_version);
      if (applied(await exec(statements.reclaim as NamedStatement, { ...input, lock_version: version }))) return { outcome: 'claimed', lockVersion: version + 1 };
      continue;
    }
    return { outcome: 'existing', record };
  }
  throw new Error('claim did not settle');
}
