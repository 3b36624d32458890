/**
 * Test helper: a small SQS server speaking the AWS JSON 1.0 protocol that @aws-sdk/client-sqs 3
 * uses (x-amz-target: AmazonSQS.<Action>), so the real SDK sends real HTTP requests to it.
 * Enough of SQS for the poller: Send/Receive (long poll, visibility timeout, receive count,
 * redrive to a DLQ after maxReceiveCount)/Delete/ChangeMessageVisibility.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Stored {
  id: string;
  body: string;
  attributes: Record<string, { DataType: string; StringValue?: string }>;
  visibleAt: number;
  receiveCount: number;
  receipt?: string;
}

interface Queue {
  messages: Stored[];
  visibilityMs: number;
  redrive?: { dlq: string; maxReceiveCount: number };
}

export interface FakeSqs {
  readonly endpoint: string;
  /** Creates a queue and returns its URL. */
  createQueue(name: string, options?: { visibilityMs?: number; redrive?: { dlq: string; maxReceiveCount: number } }): string;
  /** Messages left in a queue (visible or not). */
  depth(name: string): number;
  bodies(name: string): string[];
  /** Requests by action, to show what the SDK really sent. */
  readonly calls: Record<string, number>;
  close(): Promise<void>;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export async function startFakeSqs(): Promise<FakeSqs> {
  const queues = new Map<string, Queue>();
  const calls: Record<string, number> = {};
  let base = '';
  const nameOf = (url: unknown) => String(url).split('/').at(-1)!;
  const queueOf = (url: unknown) => {
    const queue = queues.get(nameOf(url));
    if (!queue) throw Object.assign(new Error('The specified queue does not exist.'), { type: 'AWS.SimpleQueueService.NonExistentQueue' });
    return queue;
  };

  function receive(input: Record<string, unknown>) {
    const name = nameOf(input.QueueUrl);
    const queue = queueOf(input.QueueUrl);
    const now = Date.now();
    const out = [];
    for (const message of [...queue.messages]) {
      if (out.length >= Number(input.MaxNumberOfMessages ?? 1)) break;
      if (message.visibleAt > now) continue;
      if (queue.redrive && message.receiveCount >= queue.redrive.maxReceiveCount) {
        queue.messages.splice(queue.messages.indexOf(message), 1);
        queues.get(queue.redrive.dlq)?.messages.push({ ...message, visibleAt: 0, receiveCount: 0 });
        continue;
      }
      message.receiveCount++;
      message.receipt = `${name}:${message.id}:${randomUUID()}`;
      message.visibleAt = now + (input.VisibilityTimeout !== undefined ? Number(input.VisibilityTimeout) * 1000 : queue.visibilityMs);
      out.push({
        MessageId: message.id, ReceiptHandle: message.receipt, Body: message.body, MD5OfBody: md5(message.body),
        Attributes: { ApproximateReceiveCount: String(message.receiveCount) }, MessageAttributes: message.attributes,
      });
    }
    return out;
  }

  async function handle(action: string, input: Record<string, unknown>): Promise<unknown> {
    calls[action] = (calls[action] ?? 0) + 1;
    switch (action) {
      case 'SendMessage': {
        const body = String(input.MessageBody);
        const id = randomUUID(); // a new id per send, like SQS: a retried send is a new message
        queueOf(input.QueueUrl).messages.push({ id, body, attributes: (input.MessageAttributes as Stored['attributes']) ?? {}, visibleAt: 0, receiveCount: 0 });
        return { MessageId: id, MD5OfMessageBody: md5(body) };
      }
      case 'ReceiveMessage': {
        const deadline = Date.now() + Number(input.WaitTimeSeconds ?? 0) * 1000;
        for (;;) {
          const messages = receive(input);
          if (messages.length > 0 || Date.now() >= deadline) return messages.length > 0 ? { Messages: messages } : {};
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      case 'DeleteMessage': {
        const queue = queueOf(input.QueueUrl);
        queue.messages = queue.messages.filter((m) => m.receipt !== input.ReceiptHandle);
        return {};
      }
      case 'ChangeMessageVisibility': {
        const message = queueOf(input.QueueUrl).messages.find((m) => m.receipt === input.ReceiptHandle);
        if (message) message.visibleAt = Date.now() + Number(input.VisibilityTimeout) * 1000;
        return {};
      }
      default:
        throw Object.assign(new Error(`${action} is not implemented by the fake`), { type: 'AWS.SimpleQueueService.UnsupportedOperation' });
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '').replace('AmazonSQS.', '');
      const input = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      handle(action, input).then(
        (output) => {
          res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
          res.end(JSON.stringify(output));
        },
        (error: Error & { type?: string }) => {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(JSON.stringify({ __type: error.type ?? 'InternalError', message: error.message }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint: base,
    calls,
    createQueue(name, { visibilityMs = 30_000, redrive } = {}) {
      queues.set(name, { messages: [], visibilityMs, ...(redrive ? { redrive } : {}) });
      return `${base}/000000000000/${name}`;
    },
    depth: (name) => queues.get(name)?.messages.length ?? 0,
    bodies: (name) => queues.get(name)?.messages.map((m) => m.body) ?? [],
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
