/** A PgQueryable over knex (or a knex transaction), so the store runs inside a knex transaction. */
import type { PgQueryable, PgQueryResult } from './queryable.js';

/** The part of a knex instance or transaction used here (structural: knex is not imported). */
export interface KnexLike {
  raw(sql: string, bindings?: readonly unknown[]): PromiseLike<unknown>;
}

/**
 * Adapts knex to the store's port. knex binds `?` placeholders, so each `$n` of the store's
 * statements becomes `?` with its value in order (a `$n` used twice is bound twice). The store's
 * statements contain no other `?` and no `$n` inside literals; do not pass other SQL through it.
 * @example
 * await knex.transaction(async (trx) => {
 *   await payments.run(knexQueryable(trx), request, async () => trx('payments').insert(row));
 * });
 */
export function knexQueryable(knex: KnexLike): PgQueryable {
  return {
    async query(text, values) {
      if (values === undefined) return toResult(await knex.raw(text));
      const bindings: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_, n: string) => {
        bindings.push(values[Number(n) - 1]);
        return '?';
      });
      return toResult(await knex.raw(sql, bindings));
    },
  };
}

/** knex's pg client answers the driver's result (or, for several statements, an array of them). */
function toResult(raw: unknown): PgQueryResult {
  const last = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return { rows: ((last as { rows?: Record<string, unknown>[] } | undefined)?.rows ?? []) };
}
