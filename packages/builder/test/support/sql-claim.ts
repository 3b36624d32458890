/**
 * Drives the generated named statements the way the generated standalone stores do: insert-if-
 * absent, fetch, fenced compare-and-set reclaim. Used to prove the statements against real servers.
 */
import { parseQueriesFile, type NamedStatement } from '../../src/emit/sql/statements.js';

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


export function statementsOf(queriesFile: string): Record<string, NamedStatement> {
  return Object.fromEntries(parseQueriesFile(queriesFile).map((statement) => [statement.name, statement]));
}
