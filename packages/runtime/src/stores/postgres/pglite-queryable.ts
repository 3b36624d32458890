/** A PgQueryable over PGlite: PostgreSQL compiled to WebAssembly, in-process, one connection. */
import type { PgQueryable, PgQueryResult } from './queryable.js';

/** The part of a PGlite instance (or a PGlite transaction) used here; PGlite is not imported. */
export interface PGliteLike {
  query(text: string, params?: unknown[]): Promise<PgQueryResult>;
  exec(text: string): Promise<readonly PgQueryResult[]>;
}

/**
 * Adapts PGlite: parameterised statements go through `query`, parameterless scripts (migrations,
 * partition DDL) through `exec`, which accepts several statements. PGlite is ONE connection:
 * concurrent calls queue, so it proves the SQL, never the concurrency.
 * @example
 * const store = createPostgresStore({ db: pgliteQueryable(new PGlite()) });
 * await store.migrate();
 */
export function pgliteQueryable(pglite: PGliteLike): PgQueryable {
  return {
    async query(text, values) {
      if (values !== undefined) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}
