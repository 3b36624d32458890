/**
 * DynamoDB: the logical model as one item per record (partition key = scope, sort key = key) and
 * ONE conditional write per operation (a claim that meets a dead item adds one fenced takeover). DynamoDB conditions cannot read a server clock, so the
 * application's clock is used and leases carry a clock-skew buffer.
 */

/**
 * The table definition (CreateTable input) and the request templates, as JSON. Values written
 * `<like this>` are filled in per request.
 * @example JSON.parse(dynamoDbLayout('idempotency_store')).createTable.TableName
 */
export function dynamoDbLayout(table: string): string {
  const layout = {
    createTable: {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'user_id', AttributeType: 'S' },
        { AttributeName: 'idempotency_key', AttributeType: 'S' },
      ],
      // The composite primary key is the uniqueness constraint: one item per (user, key).
      KeySchema: [
        { AttributeName: 'user_id', KeyType: 'HASH' },
        { AttributeName: 'idempotency_key', KeyType: 'RANGE' },
      ],
    },
    // TTL deletes expired items within about 48 hours; every condition still checks expires_at itself.
    timeToLive: { TableName: table, TimeToLiveSpecification: { AttributeName: 'ttl_epoch_s', Enabled: true } },
    // Fencing tokens: a fresh item's lock_version is the app clock in ms (DynamoDB has no server
    // clock), an orphan reclaim adds 1, replacing an expired item takes max(seen + 1, now). Starting
    // at 1 would let a stalled holder of a released key's first incarnation match the next one's.
    claim: {
      TableName: table,
      Item: {
        user_id: '<scope>',
        idempotency_key: '<key>',
        status: 'PROCESSING',
        fingerprint: '<fingerprint>',
        lock_version: '<app clock ms: the fencing token of a fresh claim>',
        locked_until: '<now + lease_ms (lease includes the skew buffer)>',
        expires_at: '<now + ttl_ms>',
        created_at: '<app clock ms>',
        ttl_epoch_s: '<ceil((now + ttl_ms) / 1000)>',
      },
      ConditionExpression: 'attribute_not_exists(idempotency_key)',
      // On a failed condition the item that blocked the claim comes back: no second read needed.
      // It says which takeover (if any) applies, and its lock_version fences that takeover.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    reclaim: {
      TableName: table,
      Key: { user_id: '<scope>', idempotency_key: '<key>' },
      UpdateExpression: 'SET lock_version = lock_version + :one, locked_until = :lease_end, expires_at = :expires_at, ttl_epoch_s = :ttl_epoch_s',
      ConditionExpression: '#status = :processing AND locked_until <= :now AND fingerprint = :fp AND lock_version = :seen',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':processing': 'PROCESSING',
        ':fp': '<fingerprint>',
        ':one': 1,
        ':seen': '<lock_version of the blocking item>',
        ':now': '<app clock ms>',
        ':lease_end': '<now + lease_ms (lease includes the skew buffer)>',
        ':expires_at': '<now + ttl_ms>',
        ':ttl_epoch_s': '<ceil((now + ttl_ms) / 1000)>',
      },
      ReturnValues: 'ALL_NEW',
    },
    replaceExpired: {
      TableName: table,
      Key: { user_id: '<scope>', idempotency_key: '<key>' },
      UpdateExpression:
        'SET #status = :processing, fingerprint = :fp, lock_version = :next, locked_until = :lease_end, expires_at = :expires_at, ' +
        'created_at = :now, ttl_epoch_s = :ttl_epoch_s REMOVE response_code, response_body, completed_at',
      ConditionExpression: '#status <> :processing AND expires_at <= :now AND lock_version = :seen',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':processing': 'PROCESSING',
        ':fp': '<fingerprint>',
        ':seen': '<lock_version of the blocking item>',
        ':next': '<max(seen + 1, now)>',
        ':now': '<app clock ms>',
        ':lease_end': '<now + lease_ms (lease includes the skew buffer)>',
        ':expires_at': '<now + ttl_ms>',
        ':ttl_epoch_s': '<ceil((now + ttl_ms) / 1000)>',
      },
      ReturnValues: 'ALL_NEW',
    },
    complete: {
      TableName: table,
      Key: { user_id: '<scope>', idempotency_key: '<key>' },
      UpdateExpression:
        'SET #status = :completed, response_code = :code, response_body = :body, completed_at = :now, expires_at = :expires_at, ttl_epoch_s = :ttl_epoch_s REMOVE locked_until',
      ConditionExpression: '#status = :processing AND lock_version = :lock_version',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':completed': 'COMPLETED',
        ':processing': 'PROCESSING',
        ':lock_version': '<the holder’s lock_version>',
        ':code': '<response code>',
        ':body': '<response body>',
        ':now': '<app clock ms>',
        ':expires_at': '<now + ttl_ms>',
        ':ttl_epoch_s': '<ceil((now + ttl_ms) / 1000)>',
      },
    },
    release: {
      TableName: table,
      Key: { user_id: '<scope>', idempotency_key: '<key>' },
      ConditionExpression: '#status = :processing AND lock_version = :lock_version',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':processing': 'PROCESSING', ':lock_version': '<the holder’s lock_version>' },
    },
    forceRelease: {
      TableName: table,
      Key: { user_id: '<scope>', idempotency_key: '<key>' },
      UpdateExpression: 'SET locked_until = :now ADD lock_version :one',
      ConditionExpression: '#status = :processing',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':processing': 'PROCESSING', ':now': '<app clock ms>', ':one': 1 },
    },
  };
  return `${JSON.stringify(layout, null, 2)}\n`;
}
