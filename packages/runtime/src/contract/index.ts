/**
 * `@idempotency-builder/runtime/contract`: the runtime's contract as data, for readers that
 * describe or re-implement it (the builder's design document, generated Go/Python/Java stores).
 * Everything here is the very value the runtime uses — statements the stores execute, scripts the
 * Redis store loads, the adapters' problem table — never a copy. Imports no driver.
 */
export { DEFAULT_LEASE_MS, DEFAULT_TTL_MS } from '../core/options.js';
export { ERROR_CODES } from './errors.js';
export type { IdempotencyErrorCode } from '../core/errors.js';
export type { RecordStatus } from '../core/record.js';
export {
  PROBLEMS,
  PROBLEM_CODES,
  problemStatus,
  problemAnswer,
  problemForError,
  DEFAULT_PROBLEM_TYPE_BASE,
  DEFAULT_REPLAY_HEADERS,
  FORBIDDEN_REPLAY_HEADERS,
  REPLAYED_HEADER,
  DEFAULT_STORED_STATUSES,
  defaultStoreStatus,
  type HttpProfile,
  type ProblemBody,
  type ProblemCode,
} from './http.js';
export {
  postgresContract,
  postgresStatements,
  POSTGRES_STATEMENT_PARAMS,
  type PostgresContract,
  type PostgresContractTarget,
  type PostgresLayout,
  type PostgresStatements,
} from './postgres.js';
export { sqliteContract, type SqliteContract, type SqliteStatements } from './sqlite.js';
export { REDIS_SCRIPTS, REDIS_RECORD_FIELDS, REDIS_DEFAULT_PREFIX, REDIS_DEFAULT_KEEP_EXPIRED_MS, type RedisScript, type RedisScriptName } from './redis.js';
export {
  mysqlContract,
  mysqlStatements,
  type MysqlContract,
  type MysqlContractTarget,
  type MysqlStatement,
  type MysqlStatements,
} from './mysql.js';
export {
  dynamoDbTableDefinition,
  dynamoDbPartitionKey,
  DYNAMODB_ATTRIBUTES,
  DYNAMODB_DEFAULTS,
  DYNAMODB_EXPRESSIONS,
  type DynamoDbTableDefinition,
  type DynamoDbClaimValues,
  type DynamoDbExpression,
  type DynamoDbFinishValues,
} from './dynamodb.js';
export {
  conformanceScenarios,
  type ConformanceScenario,
  type ConformanceScenarioFile,
  type ScenarioStep,
  type ScenarioOp,
  type ScenarioResponse,
  type ClaimExpectation,
  type ConcurrentClaimExpectation,
  type RecordExpectation,
  type LockVersionExpectation,
} from './conformance-scenarios.js';

/**
 * The databases whose store the runtime ships and whose statements this subpath exports. A reader
 * may say "the runtime runs this" only for these.
 * @example CONTRACT_STORES.includes('postgresql') // true
 */
export const CONTRACT_STORES = ['postgresql', 'sqlite', 'redis', 'mysql'] as const;
export type ContractStore = (typeof CONTRACT_STORES)[number];
