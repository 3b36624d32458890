/**
 * MongoDB: a mongosh script that prepares the collection the generated store (mongo-store.ts)
 * uses — the same document shape and the same indexes its `migrate()` creates, plus a schema
 * validator in place of the SQL model's CHECK constraint. The runtime ships no MongoDB store.
 */
import { MONGO_UNTESTED } from '../typescript/mongo-store-file.js';

/**
 * A mongosh script: collection, validator and indexes.
 * @example mongoSetupScript('idempotency_store').includes('pk_idempotency') // true
 */
export function mongoSetupScript(collection: string, ttlGraceMs = 86_400_000): string {
  const coll = `db.getCollection(${JSON.stringify(collection)})`;
  return `// Idempotency store for MongoDB 5.0+ (mongosh): the collection of the generated mongo-store.ts.
// Times are BSON dates written from the server clock ($$NOW) inside pipeline updates.
// ${MONGO_UNTESTED}
// Run: mongosh "$MONGODB_URI" idempotency-mongodb.js   (or call store.migrate(), which creates the same indexes)

db.createCollection(${JSON.stringify(collection)}, {
  validator: {
    $jsonSchema: {
      bsonType: 'object',
      required: ['key', 'scope', 'fingerprint', 'status', 'lockVersion', 'createdAt', 'expiresAt', 'claimToken'],
      properties: {
        key: { bsonType: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_.:~-]+$' },
        scope: { bsonType: 'string', minLength: 1 },
        owner: { bsonType: ['string', 'null'] },
        fingerprint: { bsonType: 'string', pattern: '^[0-9a-f]{64}$' },
        // The CHECK constraint of the SQL model:
        status: { enum: ['PROCESSING', 'COMPLETED', 'FAILED'] },
        // The fencing token: the server clock in ms on a fresh claim, +1 on every takeover.
        lockVersion: { bsonType: ['long', 'int', 'double'] },
        lockedUntil: { bsonType: ['date', 'null'] },
        createdAt: { bsonType: 'date' },
        completedAt: { bsonType: ['date', 'null'] },
        expiresAt: { bsonType: 'date' },
        claimToken: { bsonType: 'string' },
      },
    },
  },
  validationAction: 'error',
});

// The primary key of the SQL model: two first claims of one (key, scope) end as one document.
${coll}.createIndex({ key: 1, scope: 1 }, { unique: true, name: 'pk_idempotency' });
// Cleanup batches and the runbook's stuck-claim query.
${coll}.createIndex({ status: 1, expiresAt: 1 }, { name: 'idx_purge' });
${coll}.createIndex({ status: 1, lockedUntil: 1 }, { name: 'idx_stuck' });
// The TTL monitor (every ~60 s) deletes a record ${Math.ceil(ttlGraceMs / 1000)} s after expiresAt, so onExpired: 'reject' can
// still recognise a key meanwhile; claims check expiresAt themselves.
${coll}.createIndex({ expiresAt: 1 }, { name: 'ttl_expires', expireAfterSeconds: ${Math.ceil(ttlGraceMs / 1000)} });
`;
}
