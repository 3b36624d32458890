/** A MysqlQueryable over knex (or a knex transaction), so the store runs inside a knex transaction. */
import type { MysqlQueryable } from './queryable.js';

/** The part of a knex instance or transaction used here (structural: knex is not imported). */
export interface KnexMysqlLike {
  raw(sql: string, bindings?: readonly unknown[]): PromiseLike<unknown>;
}

/**
 * Adapts knex on the `mysql2` client to the store's port: knex's raw() already answers mysql2's
 * `[result, fields]`, with the same `?` placeholders. The store's statements contain no other `?`
 * (and no knex named bindings), so they pass through unchanged.
 * @example
 * await knex.transaction(async (trx) => {
 *   await payments.run(knexMysqlQueryable(trx), request, async () => trx('payments').insert(row));
 * });
 */
export function knexMysqlQueryable(knex: KnexMysqlLike): MysqlQueryable {
  return {
    async query(sql, values) {
      const raw = await knex.raw(sql, values ?? []);
      return (Array.isArray(raw) ? raw : [raw]) as unknown as readonly [unknown, unknown?];
    },
  };
}
