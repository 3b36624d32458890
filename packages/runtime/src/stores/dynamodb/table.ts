/**
 * Creating the store's table, for tests and development (production tables belong in your IaC:
 * the definition is the same — see docs/stores/dynamodb.md). On-demand billing, partition key
 * `pk` (string), native TTL on `ttl`.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { DynamoClientLike } from './document-port.js';
// The one table definition (the contract's, what IaC must declare too): no second literal copy here.
import { dynamoDbTableDefinition } from '../../contract/dynamodb.js';

export interface CreateDynamoDbTableOptions {
  readonly table: string;
  /** Turn on native TTL on the `ttl` attribute. Default true. */
  readonly ttl?: boolean;
  /** How long to wait for the table to become ACTIVE. Default 60 s. */
  readonly timeoutMs?: number;
}

export interface CreateDynamoDbTableResult {
  readonly created: boolean;
  /** False when the server does not implement UpdateTimeToLive (dynalite, some emulators). */
  readonly ttlEnabled: boolean;
}

type Commands = Record<'CreateTableCommand' | 'DescribeTableCommand' | 'UpdateTimeToLiveCommand', new (input: unknown) => unknown>;

/**
 * Creates the table when missing and waits until it is ACTIVE; then enables TTL.
 * @example
 * await createDynamoDbTable(new DynamoDBClient({ endpoint: 'http://127.0.0.1:4567' }), { table: 'idempotency' });
 */
export async function createDynamoDbTable(client: DynamoClientLike, options: CreateDynamoDbTableOptions): Promise<CreateDynamoDbTableResult> {
  if (typeof client?.send !== 'function') throw new InvalidOptionsError('createDynamoDbTable() needs a DynamoDBClient (with send()).');
  const { table, ttl = true, timeoutMs = 60_000 } = options;
  const sdk = (await import('@aws-sdk/client-dynamodb')) as unknown as Commands;
  const definition = dynamoDbTableDefinition(table);
  let created = false;
  try {
    await client.send(new sdk.CreateTableCommand(definition.createTable));
    created = true;
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = (await client.send(new sdk.DescribeTableCommand({ TableName: table }))) as { Table?: { TableStatus?: string } };
    if (out.Table?.TableStatus === 'ACTIVE') break;
    if (Date.now() > deadline) throw new Error(`Table ${table} did not become ACTIVE within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!ttl) return { created, ttlEnabled: false };
  try {
    await client.send(new sdk.UpdateTimeToLiveCommand(definition.timeToLive));
    return { created, ttlEnabled: true };
  } catch (error) {
    const name = (error as { name?: string }).name;
    // Already on (a second call) is fine; an emulator without the operation is reported, not hidden.
    if (name === 'ValidationException' && /already enabled/i.test(String((error as Error).message))) return { created, ttlEnabled: true };
    if (name === 'UnknownOperationException') return { created, ttlEnabled: false };
    throw error;
  }
}
