/** `idempotency-builder/dynamodb`: the DynamoDB store and a table helper for tests and development. */
export { createDynamoDbStore, type DynamoDbStore, type DynamoDbStoreOptions } from './dynamodb-store.js';
export { createDynamoDbTable, type CreateDynamoDbTableOptions, type CreateDynamoDbTableResult } from './table.js';
export { ATTR as DYNAMODB_ATTRIBUTES, partitionKey } from './item-mapping.js';
export { isConditionFailed, type DynamoClientLike, type DynamoDocumentLike, type DynamoItem } from './document-port.js';
