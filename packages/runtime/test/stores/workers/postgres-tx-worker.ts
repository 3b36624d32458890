/**
 * Child process for the transactional crash test: opens a transaction, claims a key, writes the
 * business row, says "ready" and then hangs with the transaction open until it is SIGKILLed.
 * argv[2]: JSON { schema, table, key }.
 */
import pg from 'pg';
import { createPostgresStore, createTransactionalIdempotency } from '../../../src/stores/postgres/index.js';
import { PG_CONFIG } from './postgres-support.js';

const { schema, table, key } = JSON.parse(process.argv[2]!) as { schema: string; table: string; key: string };
const client = new pg.Client(PG_CONFIG);
await client.connect();
const store = createPostgresStore({ db: client, schema, table });
const payments = createTransactionalIdempotency({ store });

await client.query('BEGIN');
await payments.run(client, { key, scope: 'user-1', fingerprint: 'c'.repeat(64) }, async ({ db }) => {
  await db.query(`INSERT INTO "${schema}".payments (id, amount) VALUES ($1, 4999)`, [key]);
  process.send!({ type: 'ready', pid: (await db.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid });
  await new Promise(() => {}); // hold the transaction open until killed
});
