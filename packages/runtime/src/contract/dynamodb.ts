/**
 * The DynamoDB store's contract: its table (one item per record, partition key `pk` =
 * `<scope>#<key>`, native TTL on `ttl` in epoch seconds), its attribute names, and the
 * expression builders it sends — the very functions createDynamoDbStore calls.
 */
import { ATTR, partitionKey } from '../stores/dynamodb/item-mapping.js';
import {
  claimExpression,
  extendExpression,
  finishExpression,
  forceReleaseExpression,
  purgeDeleteExpression,
  purgeFilter,
  releaseExpression,
  stuckFilter,
  type ClaimValues,
  type Expression,
  type FinishValues,
} from '../stores/dynamodb/expressions.js';

export { ATTR as DYNAMODB_ATTRIBUTES, partitionKey as dynamoDbPartitionKey };
export type { ClaimValues as DynamoDbClaimValues, Expression as DynamoDbExpression, FinishValues as DynamoDbFinishValues };

/** The expression builders, by operation (values in, names and values out). */
export const DYNAMODB_EXPRESSIONS = {
  claim: claimExpression,
  finish: finishExpression,
  release: releaseExpression,
  extend: extendExpression,
  forceRelease: forceReleaseExpression,
  purgeFilter,
  purgeDelete: purgeDeleteExpression,
  stuckFilter,
} as const;

/** The store's defaults that shape the data: the skew buffer in every lease end, the TTL grace. */
export const DYNAMODB_DEFAULTS = { clockSkewMs: 1_000, ttlGraceMs: 86_400_000, inlineBodyBytes: 350_000 } as const;

export interface DynamoDbTableDefinition {
  /** CreateTable input: on-demand billing, string partition key `pk`, no sort key. */
  readonly createTable: {
    readonly TableName: string;
    readonly AttributeDefinitions: readonly { readonly AttributeName: string; readonly AttributeType: 'S' }[];
    readonly KeySchema: readonly { readonly AttributeName: string; readonly KeyType: 'HASH' }[];
    readonly BillingMode: 'PAY_PER_REQUEST';
  };
  /** UpdateTimeToLive input: native TTL on `ttl` (epoch seconds = expiresAt + grace). */
  readonly timeToLive: { readonly TableName: string; readonly TimeToLiveSpecification: { readonly AttributeName: string; readonly Enabled: true } };
}

/**
 * The table createDynamoDbTable creates (and what your IaC must declare for createDynamoDbStore).
 * @example dynamoDbTableDefinition('idempotency').createTable.KeySchema[0].AttributeName // 'pk'
 */
export function dynamoDbTableDefinition(table: string): DynamoDbTableDefinition {
  return {
    createTable: {
      TableName: table,
      AttributeDefinitions: [{ AttributeName: ATTR.pk, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: ATTR.pk, KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    },
    timeToLive: { TableName: table, TimeToLiveSpecification: { AttributeName: ATTR.ttl, Enabled: true } },
  };
}
