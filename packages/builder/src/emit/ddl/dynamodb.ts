/**
 * DynamoDB: the runtime's own table and expressions (`@idempotency-builder/runtime/contract`,
 * the builders createDynamoDbStore calls), rendered with descriptive values. One item per record,
 * partition key `pk` = `<scope>#<key>`; one conditional update claims, reclaims an orphan or
 * replaces an expired record. DynamoDB has no server clock: the app clock is used and every
 * stored lease end carries a clock-skew buffer.
 */
import { DYNAMODB_ATTRIBUTES, DYNAMODB_DEFAULTS, DYNAMODB_EXPRESSIONS, dynamoDbTableDefinition, type DynamoDbExpression } from '@idempotency-builder/runtime/contract';

/** What each expression value stands for; the runtime computes them per request. */
const VALUE_MEANING: Readonly<Record<string, string>> = {
  ':now': '<app clock ms>',
  ':nowMinusOne': '<app clock ms - 1: a fresh item’s lockVersion becomes the clock in ms>',
  ':one': '1',
  ':processing': 'PROCESSING',
  ':completed': 'COMPLETED',
  ':failed': 'FAILED',
  ':fingerprint': '<fingerprint>',
  ':owner': '<owner, when the key namespace is shared>',
  ':lockedUntil': `<now + leaseMs + clockSkewMs (default ${DYNAMODB_DEFAULTS.clockSkewMs})>`,
  ':expiresAt': '<now + ttlMs>',
  ':key': '<key>',
  ':scope': '<scope>',
  ':nonce': '<random nonce: recognises its own write after a lost response>',
  ':lockVersion': '<the holder’s lockVersion>',
  ':status': '<COMPLETED | FAILED>',
  ':encoding': '<response encoding>',
  ':code': '<response status code>',
  ':headers': '<allow-listed response headers, JSON>',
  ':body': '<response body bytes (inline up to 350 000 bytes, else chunk items)>',
  ':chunks': '<number of body chunk items>',
  ':ttl': `<ceil((expiresAt + ttlGraceMs) / 1000), ttlGraceMs default ${DYNAMODB_DEFAULTS.ttlGraceMs}>`,
  ':threshold': '<now - olderThanMs>',
};

function described(expression: DynamoDbExpression): DynamoDbExpression {
  const values = expression.ExpressionAttributeValues;
  if (!values) return expression;
  return { ...expression, ExpressionAttributeValues: Object.fromEntries(Object.keys(values).map((name) => [name, VALUE_MEANING[name] ?? `<${name.slice(1)}>`])) };
}

/**
 * The table definition (CreateTable and UpdateTimeToLive inputs, exactly the runtime's) and the
 * runtime's expressions per operation, as JSON. Values written `<like this>` are per request.
 * @example JSON.parse(dynamoDbLayout('idempotency_store')).createTable.TableName
 */
export function dynamoDbLayout(table: string): string {
  const definition = dynamoDbTableDefinition(table);
  const key = { [DYNAMODB_ATTRIBUTES.pk]: '<scope>#<key>' };
  const sample = { key: '<key>', scope: '<scope>', now: 0, lockedUntil: 0, expiresAt: 0, nonce: '<nonce>' };
  const layout = {
    note: 'The idempotency-builder runtime’s DynamoDB table (createDynamoDbTable creates it; declare the same in your IaC) and the conditional expressions createDynamoDbStore sends. App clock plus a skew buffer: DynamoDB has no server clock.',
    createTable: definition.createTable,
    timeToLive: definition.timeToLive,
    attributes: DYNAMODB_ATTRIBUTES,
    claim: {
      TableName: table,
      Key: key,
      ...described(DYNAMODB_EXPRESSIONS.claim({ ...sample, owner: null, fingerprint: '<fingerprint>', replaceExpired: true })),
      ReturnValues: 'ALL_OLD',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    finish: {
      TableName: table,
      Key: key,
      ...described(
        DYNAMODB_EXPRESSIONS.finish({ lockVersion: 0, status: 'COMPLETED', code: 200, headers: '{}', encoding: 'json', body: new Uint8Array(0), chunks: 0, now: 0, expiresAt: 0, ttl: 0, nonce: '<nonce>' }),
      ),
    },
    release: { TableName: table, Key: key, ...described(DYNAMODB_EXPRESSIONS.release(0)) },
    extend: { TableName: table, Key: key, ...described(DYNAMODB_EXPRESSIONS.extend(0, 0)) },
    forceRelease: { TableName: table, Key: key, ...described(DYNAMODB_EXPRESSIONS.forceRelease(0)) },
    purgeScan: { TableName: table, ...described(DYNAMODB_EXPRESSIONS.purgeFilter(0)) },
    purgeDelete: { TableName: table, Key: key, ...described(DYNAMODB_EXPRESSIONS.purgeDelete(0, 'COMPLETED', 0)) },
    listStuckScan: { TableName: table, ...described(DYNAMODB_EXPRESSIONS.stuckFilter(0)) },
  };
  return `${JSON.stringify(layout, null, 2)}\n`;
}
