// The saga scenarios on the PostgreSQL store: one schema for this file, one table per scenario.
import pg from 'pg';
import { postgresAvailable, schemaFor } from '../stores/workers/postgres-support.js';
import { PG } from './support/saga-fixture.js';
import { runSagaSuite } from './support/saga-suite.js';

const available = await postgresAvailable();
const schema = schemaFor(import.meta.url);
runSagaSuite({
  name: 'postgres',
  skip: available ? false : 'PostgreSQL is not reachable on 127.0.0.1:5432',
  storeFor: (label) => ({ kind: 'postgres', schema, table: `saga_${label}` }),
  cleanup: async () => {
    if (!available) return;
    const client = new pg.Client(PG);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  },
});
