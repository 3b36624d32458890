/** The table's names and DDL: the spec's `idempotency_store`, plain or range-partitioned. */
import { createHash } from 'node:crypto';
import { quoteIdent } from './identifiers.js';

export type PostgresLayout = 'plain' | 'partitioned';

/** Every name the store derives from schema + table, checked and quoted once. */
export interface TableNames {
  readonly schema: string;
  readonly table: string;
  /** `"schema"` */
  readonly quotedSchema: string;
  /** `"schema"."table"` */
  readonly qualified: string;
  /** The migrations ledger, `"schema"."<table>_migrations"`. */
  readonly migrations: string;
  /** The partitioned layout's claim function, `"schema"."<table>_claim"`. */
  readonly claimFunction: string;
  /** A 32-bit number naming this table in advisory locks (see `lockClass`). */
  readonly lockClass: number;
  /** Quotes `<table><suffix>` in the table's schema, checking the derived name too. */
  readonly derived: (suffix: string) => string;
}

/**
 * The first advisory-lock key of every lock this table takes; the second is a key hash (claims
 * in the partitioned layout) or 0 (migrations). The two-int lock space does not overlap the
 * one-bigint space most applications use, so these locks cannot collide with theirs.
 */
function lockClass(schema: string, table: string): number {
  return createHash('sha256').update(`idempotency-builder:${schema}.${table}`).digest().readInt32BE(0);
}

/**
 * Checks and quotes the schema, the table and every name derived from them.
 * @example tableNames('public', 'idempotency_store').qualified // '"public"."idempotency_store"'
 */
export function tableNames(schema: string, table: string): TableNames {
  const s = quoteIdent(schema, 'schema');
  quoteIdent(table, 'table');
  const derived = (suffix: string) => `${s}.${quoteIdent(`${table}${suffix}`, `table (derived name ${table}${suffix})`)}`;
  // The longest names derived later (an index, a partition) must fit too: checked now, not at migrate().
  for (const name of [`idx_${table}_orphan_locks`, `${table}_p20250101t000000`]) quoteIdent(name, `table (derived name ${name})`);
  return {
    schema,
    table,
    quotedSchema: s,
    qualified: `${s}.${quoteIdent(table, 'table')}`,
    migrations: derived('_migrations'),
    claimFunction: derived('_claim'),
    lockClass: lockClass(schema, table),
    derived,
  };
}

/** A bare (unqualified) derived name, quoted: indexes and constraints live in the table's schema. */
const bare = (names: TableNames, prefix: string, suffix = '') => quoteIdent(`${prefix}${names.table}${suffix}`, 'table');

/**
 * The columns: the spec's DDL, then four the runtime needs. One departure from the spec:
 * lock_version is BIGINT, not INT — a fresh record's fencing token is the store clock in ms
 * ("Fencing tokens", src/stores/contract.ts), about 1.7e12 today, far past INT's 2.1e9.
 * The four added columns —
 *   owner_id          who created a record in a shared (`global`) namespace, for the 404 rule;
 *   response_headers  the allow-listed response headers, replayed as they were;
 *   response_encoding what the body bytes are (`json`, `bytes`, `error+json`, a codec's wrapper);
 *   response_bytes    the exact body bytes. `response_body JSONB` keeps its spec meaning as a
 *                     readable copy of plain JSON bodies, but JSONB reorders keys and drops
 *                     whitespace, so a replay byte-for-byte needs the bytes themselves.
 */
const COLUMNS = `idempotency_key   VARCHAR(255)  NOT NULL,
  user_id           VARCHAR(128)  NOT NULL,
  fingerprint       CHAR(64)      NOT NULL,
  status            VARCHAR(20)   NOT NULL DEFAULT 'PROCESSING',
  response_code     INT,
  response_body     JSONB,
  lock_version      BIGINT        NOT NULL DEFAULT 0,
  locked_until      TIMESTAMPTZ,
  created_at        TIMESTAMPTZ   NOT NULL DEFAULT NOW(),
  completed_at      TIMESTAMPTZ,
  expires_at        TIMESTAMPTZ   NOT NULL,
  owner_id          VARCHAR(128),
  response_headers  JSONB,
  response_encoding VARCHAR(64),
  response_bytes    BYTEA`;

/** The spec's two partial indexes: cleanup by expiry, runbook/orphan search by lease end. */
function partialIndexes(names: TableNames): string {
  return `CREATE INDEX ${bare(names, 'idx_', '_expires')} ON ${names.qualified} (expires_at)
  WHERE status != 'PROCESSING';

-- Supports orphan-lock recovery queries
CREATE INDEX ${bare(names, 'idx_', '_orphan_locks')} ON ${names.qualified} (locked_until)
  WHERE status = 'PROCESSING';`;
}

/**
 * The spec's table: primary key (idempotency_key, user_id), the status CHECK, both partial indexes.
 * @example await db.query(plainTableSql(tableNames('public', 'idempotency_store')));
 */
export function plainTableSql(names: TableNames): string {
  return `CREATE TABLE ${names.qualified} (
  ${COLUMNS},

  CONSTRAINT ${bare(names, 'pk_')} PRIMARY KEY (idempotency_key, user_id),
  CONSTRAINT ${bare(names, 'chk_', '_status')} CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED'))
);

${partialIndexes(names)}`;
}

/**
 * The partitioned table: range partitions on created_at. PostgreSQL makes the partition key part
 * of every unique index, so the primary key is (idempotency_key, user_id, created_at) and does
 * NOT stop the same (key, user) from living in two partitions — the claim function
 * (partitioned-sql.ts) enforces that instead. Partitions come from `maintainPartitions()`.
 * @example await db.query(partitionedTableSql(tableNames('public', 'idempotency_store')));
 */
export function partitionedTableSql(names: TableNames): string {
  return `CREATE TABLE ${names.qualified} (
  ${COLUMNS},

  CONSTRAINT ${bare(names, 'pk_')} PRIMARY KEY (idempotency_key, user_id, created_at),
  CONSTRAINT ${bare(names, 'chk_', '_status')} CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED'))
) PARTITION BY RANGE (created_at);

${partialIndexes(names)}`;
}
