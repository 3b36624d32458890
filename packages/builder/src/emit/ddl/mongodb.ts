/**
 * MongoDB: the logical model as one document per record with a unique index on (user_id,
 * idempotency_key), a schema validator in place of the CHECK constraint, and claims as ONE
 * upserting findOneAndUpdate whose conditions use the server clock ($$NOW).
 */

/**
 * A mongosh script: creates the collection, validator and indexes, and defines claim/finish.
 * @example mongoSetupScript('idempotency_store')
 */
export function mongoSetupScript(collection: string): string {
  return `// Idempotency store for MongoDB 5.0+ (mongosh). Times are BSON dates from the server clock ($$NOW).
// Run: mongosh "$MONGODB_URI" idempotency-mongodb.js

db.createCollection(${JSON.stringify(collection)}, {
  validator: {
    $jsonSchema: {
      bsonType: 'object',
      required: ['idempotency_key', 'user_id', 'fingerprint', 'status', 'lock_version', 'created_at', 'expires_at'],
      properties: {
        idempotency_key: { bsonType: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_.:~-]+$' },
        user_id: { bsonType: 'string', minLength: 1, maxLength: 128 },
        fingerprint: { bsonType: 'string', pattern: '^[0-9a-f]{64}$' },
        // The CHECK constraint of the SQL model:
        status: { enum: ['PROCESSING', 'COMPLETED', 'FAILED'] },
        lock_version: { bsonType: ['int', 'long'] },
        locked_until: { bsonType: ['date', 'null'] },
        expires_at: { bsonType: 'date' },
      },
    },
  },
  validationAction: 'error',
});

// The primary key of the SQL model: a second claim of (user, key) fails with E11000.
db.getCollection(${JSON.stringify(collection)}).createIndex({ user_id: 1, idempotency_key: 1 }, { unique: true, name: 'pk_idempotency' });
// Orphan-lock recovery (partial: only PROCESSING records).
db.getCollection(${JSON.stringify(collection)}).createIndex({ locked_until: 1 }, { name: 'idx_idempotency_orphan_locks', partialFilterExpression: { status: 'PROCESSING' } });
// Cleanup: the TTL monitor deletes documents after expires_at (it runs every 60 s, so every
// claim still checks expires_at itself).
db.getCollection(${JSON.stringify(collection)}).createIndex({ expires_at: 1 }, { name: 'idx_idempotency_expires', expireAfterSeconds: 0 });

/**
 * Claim: insert, or take over an orphaned/expired record, in one atomic findOneAndUpdate.
 * When the existing record may not be taken over, the filter matches nothing, the upsert tries
 * to insert a second (user, key) and the unique index refuses it (E11000): the key exists.
 */
function claim(coll, key, userId, fingerprint, leaseMs, ttlMs) {
  const takeover = {
    $or: [
      { $expr: { $and: [{ $eq: ['$status', 'PROCESSING'] }, { $lte: ['$locked_until', '$$NOW'] }, { $eq: ['$fingerprint', fingerprint] }] } },
      { $expr: { $and: [{ $ne: ['$status', 'PROCESSING'] }, { $lte: ['$expires_at', '$$NOW'] }] } },
    ],
  };
  try {
    const doc = coll.findOneAndUpdate(
      { user_id: userId, idempotency_key: key, ...takeover },
      [
        { $set: {
            status: 'PROCESSING',
            fingerprint: fingerprint,
            // Fencing token: a fresh record starts at the server clock in ms, an orphan reclaim adds 1,
            // an expired record's replacement takes max(lock_version + 1, now): no token is reissued.
            lock_version: { $switch: {
              branches: [
                { case: { $eq: [{ $type: '$lock_version' }, 'missing'] }, then: { $toLong: '$$NOW' } },
                { case: { $eq: ['$status', 'PROCESSING'] }, then: { $add: ['$lock_version', 1] } },
              ],
              default: { $max: [{ $add: ['$lock_version', 1] }, { $toLong: '$$NOW' }] },
            } },
            locked_until: { $add: ['$$NOW', leaseMs] },
            expires_at: { $add: ['$$NOW', ttlMs] },
            created_at: { $cond: [{ $eq: ['$status', 'PROCESSING'] }, '$created_at', '$$NOW'] },
        } },
        { $unset: ['response_code', 'response_body', 'completed_at'] },
      ],
      { upsert: true, returnDocument: 'after' },
    );
    return { outcome: 'claimed', lockVersion: doc.lock_version, lockedUntil: doc.locked_until };
  } catch (error) {
    if (error.code !== 11000) throw error;
  }
  return { outcome: 'existing', record: coll.findOne({ user_id: userId, idempotency_key: key }) };
}

/** PROCESSING -> COMPLETED/FAILED, fenced by lock_version. Returns true when applied. */
function finish(coll, key, userId, lockVersion, status, responseCode, responseBody, ttlMs) {
  const result = coll.updateOne(
    { user_id: userId, idempotency_key: key, status: 'PROCESSING', lock_version: lockVersion },
    [{ $set: { status: status, response_code: responseCode, response_body: responseBody, completed_at: '$$NOW', expires_at: { $add: ['$$NOW', ttlMs] } } }, { $unset: 'locked_until' }],
  );
  return result.modifiedCount === 1;
}

/** Runbook manual release: end the lease now and bump lock_version (fences the old holder). */
function forceRelease(coll, key, userId) {
  const result = coll.updateOne(
    { user_id: userId, idempotency_key: key, status: 'PROCESSING' },
    [{ $set: { locked_until: '$$NOW', lock_version: { $add: ['$lock_version', 1] } } }],
  );
  return result.modifiedCount === 1;
}
`;
}
