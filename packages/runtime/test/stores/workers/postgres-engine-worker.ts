/**
 * Child process for the lease tests: runs one request through the engine on the PostgreSQL
 * store. The action records a side effect, says "started", and then waits for a "finish"
 * message (or forever) — so the parent can SIGKILL or SIGSTOP it mid-action.
 * argv[2]: JSON { schema, table, key, leaseMs }. Reports { type: 'result', value } or { type: 'result', error }.
 */
import pg from 'pg';
import { createIdempotency } from '../../../src/index.js';
import { createPostgresStore } from '../../../src/stores/postgres/index.js';
import { PG_CONFIG } from './postgres-support.js';

const { schema, table, key, leaseMs } = JSON.parse(process.argv[2]!) as { schema: string; table: string; key: string; leaseMs: number };
const pool = new pg.Pool({ ...PG_CONFIG, max: 2 });
const idempotency = createIdempotency({ store: createPostgresStore({ db: pool, schema, table }), leaseMs });
const finish = new Promise<void>((resolve) => process.on('message', (m: { type?: string }) => m.type === 'finish' && resolve()));

try {
  const { value } = await idempotency.run({ key, scope: 'user-1', fingerprint: 'e'.repeat(64) }, async ({ lockVersion }) => {
    await pool.query(`INSERT INTO "${schema}".side_effects (key, who) VALUES ($1, 'child')`, [key]);
    process.send!({ type: 'started', lockVersion });
    await finish;
    return 'child';
  });
  process.send!({ type: 'result', value });
} catch (error) {
  process.send!({ type: 'result', error: (error as { code?: string }).code ?? String(error) });
}
await pool.end();
process.disconnect();
