/**
 * Side effects and their triggers in TS/JS, found on call and `new` expressions: payment calls
 * (ts-payments.ts), message consumers (amqplib, kafkajs, NATS, SQS, BullMQ), schedulers
 * (node-cron, cron, node-schedule, setInterval, BullMQ repeat) and database/broker clients.
 */
import ts from 'typescript';
import { lookupDependency } from '../catalog.js';
import type { Broker, ConsumerFinding, Database, PaymentCallFinding, SchedulerFinding, TechFinding } from '../types.js';
import { paymentCall } from './ts-payments.js';
import { chainText, literalText, nodeLocation, propertyValue, rootName, type ParsedSource } from './ts-source.js';

export interface EffectFindings {
  paymentCalls: PaymentCallFinding[];
  consumers: ConsumerFinding[];
  schedulers: SchedulerFinding[];
  databases: TechFinding<Database>[];
  brokers: TechFinding<Broker>[];
}

function importsAny(src: ParsedSource, pattern: RegExp): boolean {
  return [...src.modules].some((m) => pattern.test(m));
}

function consumer(src: ParsedSource, node: ts.CallExpression | ts.NewExpression, topics: string[]): ConsumerFinding | undefined {
  const chain = chainText(node.expression);
  const args = node.arguments ?? [];
  const at = nodeLocation(src, node);
  const last = chain.slice(chain.lastIndexOf('.') + 1);
  if (importsAny(src, /^(amqplib|amqp-connection-manager)/) && ts.isCallExpression(node) && last === 'consume') {
    return { broker: 'rabbitmq', channel: literalText(args[0]), location: at, evidence: chain };
  }
  if (importsAny(src, /^kafkajs$|kafka/) && ts.isCallExpression(node) && last === 'run'
    && (propertyValue(args[0], 'eachMessage') || propertyValue(args[0], 'eachBatch'))) {
    return { broker: 'kafka', channel: topics[0], location: at, evidence: chain };
  }
  const natsSubscribe = last === 'subscribe' && literalText(args[0]) !== undefined;
  if (importsAny(src, /^(nats|@nats-io\/)/) && ts.isCallExpression(node) && (natsSubscribe || last === 'consume')) {
    return { broker: 'nats', channel: literalText(args[0]), location: at, evidence: chain };
  }
  if (importsAny(src, /^sqs-consumer$/) && /(^|\.)Consumer\.create$|^new Consumer/.test(chain) && propertyValue(args[0], 'handleMessage')) {
    return { broker: 'sqs', channel: literalText(propertyValue(args[0], 'queueUrl')), location: at, evidence: chain };
  }
  if (importsAny(src, /^sqs-consumer$/) && ts.isNewExpression(node) && chain === 'Consumer') {
    return { broker: 'sqs', channel: literalText(propertyValue(args[0], 'queueUrl')), location: at, evidence: 'new Consumer' };
  }
  if (importsAny(src, /^@aws-sdk\/client-sqs$/) && ts.isNewExpression(node) && chain === 'ReceiveMessageCommand') {
    return { broker: 'sqs', channel: literalText(propertyValue(args[0], 'QueueUrl')), location: at, evidence: 'ReceiveMessageCommand' };
  }
  if (ts.isNewExpression(node) && chain === 'Worker' && /^(bullmq|bull)$/.test(src.bindings.get('Worker') ?? '')) {
    return { broker: 'bullmq', channel: literalText(args[0]), location: at, evidence: 'new Worker' };
  }
  return undefined;
}

function scheduler(src: ParsedSource, node: ts.CallExpression | ts.NewExpression): SchedulerFinding | undefined {
  const chain = chainText(node.expression);
  const args = node.arguments ?? [];
  const at = nodeLocation(src, node);
  const first = literalText(args[0]);
  if (ts.isCallExpression(node) && chain === 'setInterval' && args.length >= 2) {
    return { mechanism: 'setInterval', schedule: `every ${args[1]?.getText(src.sf)} ms`, location: at };
  }
  if (importsAny(src, /^node-cron$/) && chain.endsWith('.schedule') && first) return { mechanism: 'node-cron', schedule: first, location: at };
  if (importsAny(src, /^cron$/) && (chain === 'CronJob' || chain.endsWith('CronJob.from'))) {
    const schedule = first ?? literalText(propertyValue(args[0], 'cronTime'));
    return { mechanism: 'cron', ...(schedule ? { schedule } : {}), location: at };
  }
  if (importsAny(src, /^node-schedule$/) && chain.endsWith('scheduleJob')) {
    const spec = literalText(args[args.length - 2]) ?? first;
    return { mechanism: 'node-schedule', ...(spec ? { schedule: spec } : {}), location: at };
  }
  if (importsAny(src, /^(bullmq|bull)$/) && chain.endsWith('.add') && args.some((arg) => propertyValue(arg, 'repeat'))) {
    const repeat = args.map((arg) => propertyValue(arg, 'repeat')).find(Boolean);
    const pattern = literalText(propertyValue(repeat, 'pattern') ?? propertyValue(repeat, 'cron'));
    return { mechanism: 'bullmq repeat', ...(pattern ? { schedule: pattern } : {}), location: at };
  }
  if (importsAny(src, /^agenda$|@hokify\/agenda/) && chain.endsWith('.every') && first) return { mechanism: 'agenda', schedule: first, location: at };
  return undefined;
}

const ORM_DIALECTS: Record<string, Database> = {
  postgres: 'postgresql', postgresql: 'postgresql', pg: 'postgresql', mysql: 'mysql', mysql2: 'mysql', mariadb: 'mariadb',
  sqlite: 'sqlite', 'better-sqlite3': 'sqlite', sqlite3: 'sqlite', mongodb: 'mongodb',
};

/** A client constructed from a driver import (`new Pool()` from pg, `amqp.connect()` from amqplib). */
function client(src: ParsedSource, node: ts.CallExpression | ts.NewExpression): TechFinding<Database> | TechFinding<Broker> | undefined {
  const root = rootName(node.expression);
  const from = root ? src.bindings.get(root) : undefined;
  const entry = from ? lookupDependency('npm', from.replace(/\/promise$/, '')) : undefined;
  const evidence = `${ts.isNewExpression(node) ? 'new ' : ''}${chainText(node.expression)}(...)`;
  if (entry?.kind === 'database' || entry?.kind === 'broker') {
    return { value: entry.value, location: nodeLocation(src, node), evidence } as TechFinding<Database> | TechFinding<Broker>;
  }
  // TypeORM / knex / MikroORM configs name the dialect in an options object.
  if (from && /^(typeorm|@nestjs\/typeorm|knex|@mikro-orm\/)/.test(from)) {
    for (const arg of node.arguments ?? []) {
      const dialect = literalText(propertyValue(arg, 'type') ?? propertyValue(arg, 'client'));
      const database = dialect ? ORM_DIALECTS[dialect] : undefined;
      if (database) return { value: database, location: nodeLocation(src, node), evidence: `${chainText(node.expression)}({ ${dialect} })` };
    }
  }
  return undefined;
}

function kafkaTopics(src: ParsedSource): string[] {
  const topics: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && chainText(node.expression).endsWith('.subscribe')) {
      const topic = literalText(propertyValue(node.arguments[0], 'topic'));
      if (topic) topics.push(topic);
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return topics;
}

/**
 * Walks one file and collects payment calls, consumers, schedulers and clients.
 * @example scanEffects(parseSource('pay.ts', "import Stripe from 'stripe'; stripe.refunds.create({})")).paymentCalls
 */
export function scanEffects(src: ParsedSource): EffectFindings {
  const out: EffectFindings = { paymentCalls: [], consumers: [], schedulers: [], databases: [], brokers: [] };
  const topics = importsAny(src, /kafka/) ? kafkaTopics(src) : [];
  const seenClients = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const payment = paymentCall(src, node);
      if (payment) out.paymentCalls.push(payment);
      const consumed = consumer(src, node, topics);
      if (consumed) out.consumers.push(consumed);
      const scheduled = scheduler(src, node);
      if (scheduled) out.schedulers.push(scheduled);
      const found = client(src, node);
      if (found && !seenClients.has(found.value)) {
        seenClients.add(found.value);
        const isBroker = ['rabbitmq', 'kafka', 'nats', 'sqs', 'bullmq'].includes(found.value);
        if (isBroker) out.brokers.push(found as TechFinding<Broker>);
        else out.databases.push(found as TechFinding<Database>);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}
