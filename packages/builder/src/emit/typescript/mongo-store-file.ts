/**
 * Generated TypeScript: a self-contained MongoDB store for the runtime's `IdempotencyStore`
 * contract, written into the user's project (the runtime ships no MongoDB store: no MongoDB server
 * runs where it is tested). Every time comparison uses the server clock (`$$NOW`) inside
 * aggregation-pipeline updates, so app-server clock skew takes no part.
 */

/** The sentence the document and the module header carry: this code was never run against a server. */
export const MONGO_UNTESTED =
  'Not run against a MongoDB server: the idempotency-builder project has no MongoDB server to test on, so this store is only type-checked against the mongodb 6 driver. Run the runtime’s conformance suite (@idempotency-builder/runtime/testing) against your server before relying on it.';

/**
 * `mongo-store.ts` for the collection.
 * @example mongoStoreFile('idempotency_store').includes('$$NOW')
 */
export function mongoStoreFile(collection: string): string {
  return `// MongoDB store for the idempotency-builder runtime (MongoDB 5.0+, the mongodb 6 driver), generated
// into your project: it implements the runtime's IdempotencyStore contract.
// ${MONGO_UNTESTED}
//
// One document per record, unique on (key, scope). Every operation is ONE atomic command:
// - claim: findOneAndUpdate with upsert and an aggregation-pipeline update. The takeover
//   conditions (absent; PROCESSING with its lease over, same fingerprint and owner; finished and
//   expired) are evaluated inside the update on the document's newest version, on the server clock
//   $$NOW. A winning claim stamps its random nonce into claimToken; the returned document tells the
//   caller whether it won (its nonce) or lost (the existing record).
// - complete / fail / release / extend: fenced by { lockVersion, status: 'PROCESSING' }.
// User values inside pipeline updates are wrapped in $literal: a string starting with '$' must
// never be read as a field path.
import { randomBytes } from 'node:crypto';
import type { ClaimInput, ClaimResult, ExtendInput, FencedInput, FencedResult, FinishInput, IdempotencyRecord, IdempotencyStore, ListStuckInput, RecordId, RecordStatus } from '@idempotency-builder/runtime';
import { Binary, MongoServerError, type Collection, type Db, type Document } from 'mongodb';

export const COLLECTION = ${JSON.stringify(collection)};

interface StoredResponseDoc {
  readonly statusCode: number | null;
  readonly headers: Record<string, string> | null;
  readonly body: Binary;
  readonly encoding: string;
}

export interface RecordDoc {
  readonly key: string;
  readonly scope: string;
  readonly owner: string | null;
  readonly fingerprint: string;
  readonly status: RecordStatus;
  /** Fencing token: the server clock in ms on a fresh claim, +1 on every takeover. */
  readonly lockVersion: number;
  readonly lockedUntil: Date | null;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
  readonly expiresAt: Date;
  readonly response: StoredResponseDoc | null;
  /** Nonce of the claim that last won the document + N (new), R (reclaimed) or E (expired replaced). */
  readonly claimToken: string;
  /** The server clock at the last claim, read back by the claim that wrote it. */
  readonly observedAt: Date;
}

export interface MongoStoreOptions {
  readonly db: Db;
  /** Default ${JSON.stringify(collection)}. */
  readonly collection?: string;
  /** How long a finished record outlives its expiresAt before the TTL index deletes it (onExpired: 'reject'). Default 24 h. */
  readonly ttlGraceMs?: number;
}

export interface MongoStore extends IdempotencyStore {
  readonly collection: Collection<RecordDoc>;
  /** Creates the unique index and the purge / listStuck / TTL indexes. Idempotent. */
  migrate(): Promise<void>;
}

const literal = (value: unknown) => ({ $literal: value });
const FENCE = (input: FencedInput) => ({ key: input.key, scope: input.scope, lockVersion: input.lockVersion, status: 'PROCESSING' as const });

function toRecord(doc: RecordDoc): IdempotencyRecord {
  const response = doc.response;
  return {
    key: doc.key,
    scope: doc.scope,
    owner: doc.owner ?? null,
    fingerprint: doc.fingerprint,
    status: doc.status,
    lockVersion: Number(doc.lockVersion),
    lockedUntil: doc.lockedUntil ? doc.lockedUntil.getTime() : null,
    createdAt: doc.createdAt.getTime(),
    completedAt: doc.completedAt ? doc.completedAt.getTime() : null,
    expiresAt: doc.expiresAt.getTime(),
    response: response ? { statusCode: response.statusCode, headers: response.headers, encoding: response.encoding, body: new Uint8Array(response.body.buffer) } : null,
  };
}

/** The claim's pipeline: decide (stage 1), then apply what was decided (stage 2). */
function claimPipeline(input: ClaimInput, nonce: string): Document[] {
  const absent = { $eq: [{ $type: '$status' }, 'missing'] };
  const orphan = {
    $and: [
      { $eq: ['$status', 'PROCESSING'] },
      { $lte: ['$lockedUntil', '$$NOW'] },
      { $eq: ['$fingerprint', literal(input.fingerprint)] },
      { $eq: [{ $ifNull: ['$owner', null] }, literal(input.owner)] },
    ],
  };
  const expired = input.replaceExpired ? { $and: [{ $ne: ['$status', 'PROCESSING'] }, { $lte: ['$expiresAt', '$$NOW'] }] } : false;
  const won = (kind: string) => ({ $eq: ['$claimToken', literal(nonce + kind)] });
  const anyWin = { $in: ['$claimToken', literal([nonce + 'N', nonce + 'R', nonce + 'E'])] };
  const nowMs = { $toLong: '$$NOW' };
  const keep = (field: string, value: unknown) => ({ $cond: [anyWin, value, '$' + field] });
  return [
    {
      $set: {
        claimToken: {
          $switch: {
            branches: [
              { case: absent, then: literal(nonce + 'N') },
              { case: orphan, then: literal(nonce + 'R') },
              { case: expired, then: literal(nonce + 'E') },
            ],
            default: '$claimToken',
          },
        },
        observedAt: '$$NOW',
      },
    },
    {
      $set: {
        lockVersion: {
          $switch: {
            branches: [
              { case: won('N'), then: nowMs },
              { case: won('R'), then: { $add: ['$lockVersion', 1] } },
              { case: won('E'), then: { $max: [{ $add: ['$lockVersion', 1] }, nowMs] } },
            ],
            default: '$lockVersion',
          },
        },
        createdAt: { $cond: [{ $or: [won('N'), won('E')] }, '$$NOW', '$createdAt'] },
        status: keep('status', literal('PROCESSING')),
        fingerprint: keep('fingerprint', literal(input.fingerprint)),
        owner: keep('owner', literal(input.owner)),
        lockedUntil: keep('lockedUntil', { $add: ['$$NOW', literal(input.leaseMs)] }),
        expiresAt: keep('expiresAt', { $add: ['$$NOW', literal(input.ttlMs)] }),
        completedAt: keep('completedAt', null),
        response: keep('response', null),
      },
    },
  ];
}

/**
 * Creates the store over \`db\`. Call \`migrate()\` once per environment (the unique index is what
 * makes two concurrent first claims of one key end as one document).
 * @example const store = createMongoStore({ db: mongo.db('app') }); await store.migrate();
 */
export function createMongoStore({ db, collection: name = COLLECTION, ttlGraceMs = 86_400_000 }: MongoStoreOptions): MongoStore {
  const collection = db.collection<RecordDoc>(name);
  const fenced = async (filter: Document, update: Document[]): Promise<FencedResult> =>
    ((await collection.updateOne(filter, update)).matchedCount === 1 ? 'applied' : 'lost');

  async function claimOnce(input: ClaimInput): Promise<ClaimResult> {
    const nonce = randomBytes(16).toString('hex');
    const doc = await collection.findOneAndUpdate({ key: input.key, scope: input.scope }, claimPipeline(input, nonce), { upsert: true, returnDocument: 'after' });
    if (!doc) throw new Error('MongoDB returned no document for an upsert.');
    const record = toRecord(doc);
    if (doc.claimToken?.startsWith(nonce)) {
      const kind = doc.claimToken.slice(32);
      return { outcome: 'claimed', lockVersion: record.lockVersion, reclaimed: kind === 'R', replacedExpired: kind === 'E', lockedUntil: record.lockedUntil ?? 0 };
    }
    return { outcome: 'existing', record, now: doc.observedAt.getTime() };
  }

  const finish = (status: 'COMPLETED' | 'FAILED') => (input: FinishInput) =>
    fenced(FENCE(input), [
      {
        $set: {
          status: literal(status),
          response: literal({ statusCode: input.response.statusCode, headers: input.response.headers, encoding: input.response.encoding, body: new Binary(input.response.body) }),
          lockedUntil: null,
          completedAt: '$$NOW',
          expiresAt: { $add: ['$$NOW', literal(input.ttlMs)] },
        },
      },
    ]);

  return {
    collection,
    async claim(input) {
      // Two first claims of one key can both try to insert: the unique index refuses the second
      // (E11000), and the retry then finds the winner's document.
      for (let attempt = 0; ; attempt++) {
        try {
          return await claimOnce(input);
        } catch (error) {
          if (attempt < 3 && error instanceof MongoServerError && error.code === 11000) continue;
          throw error;
        }
      }
    },
    complete: finish('COMPLETED'),
    fail: finish('FAILED'),
    async release(input) {
      return (await collection.deleteOne(FENCE(input))).deletedCount === 1 ? 'applied' : 'lost';
    },
    extend: (input: ExtendInput) => fenced(FENCE(input), [{ $set: { lockedUntil: { $add: ['$$NOW', literal(input.leaseMs)] } } }]),
    async get({ key, scope }: RecordId) {
      const doc = await collection.findOne({ key, scope });
      return doc ? toRecord(doc) : null;
    },
    async purgeExpired(batchSize: number) {
      const expired = { status: { $in: ['COMPLETED', 'FAILED'] as RecordStatus[] }, $expr: { $lte: ['$expiresAt', '$$NOW'] } };
      const ids = (await collection.find(expired, { projection: { _id: 1 } }).limit(batchSize).toArray()).map((doc) => doc._id);
      if (ids.length === 0) return 0;
      // Re-checked in the delete: a claim may have replaced a candidate since it was listed.
      return (await collection.deleteMany({ _id: { $in: ids }, ...expired })).deletedCount;
    },
    async listStuck({ olderThanMs, limit }: ListStuckInput) {
      const stuck = { status: 'PROCESSING' as const, $expr: { $lte: ['$lockedUntil', { $subtract: ['$$NOW', olderThanMs] }] } };
      return (await collection.find(stuck).sort({ lockedUntil: 1 }).limit(limit).toArray()).map(toRecord);
    },
    async forceRelease({ key, scope }: RecordId) {
      const result = await collection.updateOne({ key, scope, status: 'PROCESSING' }, [{ $set: { lockVersion: { $add: ['$lockVersion', 1] }, lockedUntil: '$$NOW' } }]);
      return result.modifiedCount === 1;
    },
    size: () => collection.estimatedDocumentCount(),
    async now() {
      const hello = await db.command({ hello: 1 });
      return (hello.localTime as Date).getTime();
    },
    async close() {
      // The MongoClient is yours: the store never closes it.
    },
    async migrate() {
      await collection.createIndex({ key: 1, scope: 1 }, { unique: true, name: 'pk_idempotency' });
      await collection.createIndex({ status: 1, expiresAt: 1 }, { name: 'idx_purge' });
      await collection.createIndex({ status: 1, lockedUntil: 1 }, { name: 'idx_stuck' });
      // TTL deletion (every ~60 s) after the grace period; claims check expiresAt themselves, so a
      // late deletion never makes an expired record replayable.
      await collection.createIndex({ expiresAt: 1 }, { name: 'ttl_expires', expireAfterSeconds: Math.ceil(ttlGraceMs / 1000) });
    },
  };
}
`;
}
