/**
 * A private dynalite (DynamoDB emulator) for the tests: started in this process on a free
 * loopback port, stopped by the test file. In memory, so every start is empty.
 */
import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';

const require = createRequire(import.meta.url);

export interface Dynalite {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  readonly document: DynamoDBDocument;
  stop(): Promise<void>;
}

/** Starts dynalite on 127.0.0.1 and a port the OS picks; the client is pointed at it. */
export async function startDynalite(): Promise<Dynalite> {
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const document = DynamoDBDocument.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return {
    endpoint,
    client,
    document,
    async stop() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
