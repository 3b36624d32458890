/**
 * The DynamoDB port: the few methods of lib-dynamodb's `DynamoDBDocument` the store uses,
 * structural so this package never imports the SDK. A raw `DynamoDBClient` is wrapped on demand
 * (lib-dynamodb loaded lazily, as an optional peer). Also: telling a failed condition from other
 * errors, and reading the old item a failed condition returns.
 */

/** Plain JS item, as lib-dynamodb marshals it (numbers, strings, Uint8Array, null). */
export type DynamoItem = Record<string, unknown>;

/** The part of a lib-dynamodb `DynamoDBDocument` the store calls. */
export interface DynamoDocumentLike {
  get(input: Record<string, unknown>): Promise<{ Item?: DynamoItem }>;
  put(input: Record<string, unknown>): Promise<unknown>;
  update(input: Record<string, unknown>): Promise<{ Attributes?: DynamoItem }>;
  delete(input: Record<string, unknown>): Promise<{ Attributes?: DynamoItem }>;
  scan(input: Record<string, unknown>): Promise<{ Items?: DynamoItem[]; Count?: number; LastEvaluatedKey?: DynamoItem }>;
  batchGet(input: Record<string, unknown>): Promise<{ Responses?: Record<string, DynamoItem[]>; UnprocessedKeys?: Record<string, unknown> }>;
}

/** A raw client (`DynamoDBClient` or `DynamoDBDocumentClient`): anything with `send`. */
export interface DynamoClientLike {
  send(command: unknown): Promise<unknown>;
}

const isDocument = (client: unknown): client is DynamoDocumentLike =>
  ['get', 'put', 'update', 'delete', 'scan', 'batchGet'].every((m) => typeof (client as Record<string, unknown>)[m] === 'function');

/**
 * The client as a document port: a `DynamoDBDocument` is used as is; a raw client is wrapped with
 * `DynamoDBDocument.from` (undefined values dropped, so optional attributes can be omitted).
 * @example const doc = await toDocument(new DynamoDBClient({ region: 'eu-west-1' }));
 */
export async function toDocument(client: DynamoDocumentLike | DynamoClientLike): Promise<DynamoDocumentLike> {
  if (isDocument(client)) return client;
  const lib = (await import('@aws-sdk/lib-dynamodb')) as unknown as {
    DynamoDBDocument: { from(client: unknown, config: unknown): DynamoDocumentLike };
  };
  return lib.DynamoDBDocument.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** True for either kind of client (checked once, at creation). */
export const isDynamoClient = (client: unknown): boolean =>
  isDocument(client) || typeof (client as DynamoClientLike | null)?.send === 'function';

/**
 * A failed ConditionExpression. Matched by name: the exception class lives in the optional peer
 * @aws-sdk/client-dynamodb, which this package does not import.
 */
export const isConditionFailed = (error: unknown): boolean => (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';

type AttributeValue = { S?: string; N?: string; B?: Uint8Array | string; NULL?: boolean; BOOL?: boolean };

/**
 * The old item a failed condition carries with `ReturnValuesOnConditionCheckFailure: ALL_OLD`,
 * unmarshalled (lib-dynamodb leaves it in wire format). Undefined when the server sent none —
 * dynalite ignores the parameter — so the caller reads the item instead.
 */
export function oldItemOf(error: unknown): DynamoItem | undefined {
  const raw = (error as { Item?: Record<string, AttributeValue> } | null)?.Item;
  if (!raw || typeof raw !== 'object') return undefined;
  const item: DynamoItem = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value.S !== undefined) item[name] = value.S;
    else if (value.N !== undefined) item[name] = Number(value.N);
    else if (value.B !== undefined) item[name] = typeof value.B === 'string' ? new Uint8Array(Buffer.from(value.B, 'base64')) : value.B;
    else if (value.BOOL !== undefined) item[name] = value.BOOL;
    else if (value.NULL) item[name] = null;
  }
  return item;
}
