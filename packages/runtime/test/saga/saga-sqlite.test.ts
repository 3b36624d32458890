// The saga scenarios on the SQLite store (one database file per scenario).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSagaSuite } from './support/saga-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-saga-sqlite-store-'));
runSagaSuite({
  name: 'sqlite',
  skip: false,
  storeFor: (label) => ({ kind: 'sqlite', filename: join(dir, `${label}.db`) }),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});
