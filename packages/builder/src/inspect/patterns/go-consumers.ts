/**
 * Go consumers and schedules by their libraries: segmentio kafka-go readers (topic from the
 * `ReaderConfig`), sarama consumer groups (`ConsumeClaim` handlers), confluent-kafka-go,
 * amqp091/streadway `Consume` (queue resolved through `QueueDeclare`), NATS subscriptions
 * (core, queue groups, JetStream pull), SQS `ReceiveMessage`, robfig/cron `AddFunc`/`AddJob` and
 * go-co-op/gocron. The handler is named when it is a named function.
 */
import { formatLocation } from '../location.js';
import type { ConsumerFinding, SchedulerFinding } from '../types.js';
import { callText, matchesWithLines } from './line-patterns.js';
import { AMQP_REDELIVERY, confluentRedelivery, kafkaGoRedelivery, NATS_REDELIVERY, SARAMA_REDELIVERY, SQS_REDELIVERY } from './go-redelivery.js';

/** The function a handler argument names: `handleOrder`, `svc.HandleOrder` → HandleOrder; inline funcs have none. */
function named(expr: string | undefined): string | undefined {
  if (!expr || /^func\b/.test(expr.trim())) return undefined;
  return /([A-Za-z_]\w*)\s*$/.exec(expr.trim())?.[1];
}

/**
 * Consumers of one Go file.
 * @example scanGoConsumers('worker.go', 'import "github.com/segmentio/kafka-go"\nr := kafka.NewReader(kafka.ReaderConfig{Topic: "orders"})')[0].channel // 'orders'
 */
export function scanGoConsumers(relPath: string, text: string): ConsumerFinding[] {
  const out: ConsumerFinding[] = [];
  const at = (line: number): string => formatLocation(relPath, line);
  if (/segmentio\/kafka-go/.test(text)) {
    const readers = matchesWithLines(text, /\bkafka\.NewReader\(\s*kafka\.ReaderConfig\{(?:[^{}]|\{[^{}]*\})*?\bTopic:\s*(?:"([^"]+)"|([\w.]+))/g);
    for (const { match, line, index } of readers) {
      out.push({ broker: 'kafka', channel: match[1] ?? match[2] ?? '', location: at(line), evidence: 'kafka.NewReader', redelivery: kafkaGoRedelivery(text, callText(text, index)) });
    }
    // A reader built elsewhere: each read loop is one consumer.
    if (readers.length === 0) {
      for (const { match, line } of matchesWithLines(text, /\.(ReadMessage|FetchMessage)\(/g)) {
        out.push({ broker: 'kafka', location: at(line), evidence: 'kafka-go reader', redelivery: kafkaGoRedelivery(text, undefined, match[1] === 'ReadMessage' ? 'ReadMessage' : 'FetchMessage') });
      }
    }
  }
  if (/IBM\/sarama|Shopify\/sarama/.test(text)) {
    const topics = /\.Consume\(\s*\w+\s*,\s*\[\]string\{\s*"([^"]+)"/.exec(text)?.[1];
    for (const { match, line } of matchesWithLines(text, /^func\s*\(\s*\w*\s*\*?(\w+)\)\s*ConsumeClaim\(/gm)) {
      out.push({ broker: 'kafka', ...(topics ? { channel: topics } : {}), location: at(line), evidence: 'sarama ConsumeClaim', handler: match[1] ?? '', redelivery: SARAMA_REDELIVERY });
    }
  }
  if (/confluent-kafka-go/.test(text)) {
    for (const { match, line } of matchesWithLines(text, /\.(?:SubscribeTopics\(\s*\[\]string\{\s*"([^"]+)"|Subscribe\(\s*"([^"]+)")/g)) {
      out.push({ broker: 'kafka', channel: match[1] ?? match[2] ?? '', location: at(line), evidence: 'confluent-kafka-go Subscribe', redelivery: confluentRedelivery(text) });
    }
  }
  if (/amqp091-go|streadway\/amqp/.test(text)) {
    const declared = /\.QueueDeclare\(\s*"([^"]+)"/.exec(text)?.[1];
    // `ch.Consume(queue, consumer, autoAck, …)`; a first argument `ctx` is another library's Consume (sarama).
    for (const { match, line } of matchesWithLines(text, /\.Consume\(\s*(?!ctx\b)(?:"([^"]+)"|([\w.]+))?/g)) {
      const channel = match[1] ?? (match[2] && declared ? declared : match[2]);
      out.push({ broker: 'rabbitmq', ...(channel ? { channel } : {}), location: at(line), evidence: 'amqp Consume', redelivery: AMQP_REDELIVERY });
    }
  }
  if (/nats\.go/.test(text)) {
    for (const { match, line } of matchesWithLines(text, /\.(Subscribe|QueueSubscribe|PullSubscribe|ChanSubscribe)\(\s*"([^"]+)"\s*,\s*(?:"[^"]*"\s*,\s*)?([^,)\n]+)?/g)) {
      const handler = match[1] === 'PullSubscribe' ? undefined : named(match[3]);
      out.push({ broker: 'nats', channel: match[2] ?? '', location: at(line), evidence: `nats ${match[1] ?? ''}`, ...(handler ? { handler } : {}), redelivery: NATS_REDELIVERY });
    }
  }
  if (/service\/sqs/.test(text)) {
    for (const { line } of matchesWithLines(text, /\.ReceiveMessage\(/g)) out.push({ broker: 'sqs', location: at(line), evidence: 'sqs ReceiveMessage', redelivery: SQS_REDELIVERY });
  }
  return out;
}

/**
 * Schedules of one Go file.
 * @example scanGoSchedules('jobs.go', 'import "github.com/robfig/cron/v3"\nc.AddFunc("@daily", reconcile)')[0].handler // 'reconcile'
 */
export function scanGoSchedules(relPath: string, text: string): SchedulerFinding[] {
  const out: SchedulerFinding[] = [];
  if (/robfig\/cron/.test(text)) {
    for (const { match, line } of matchesWithLines(text, /\.(?:AddFunc|AddJob)\(\s*"([^"]+)"\s*,\s*(?:([\w.]+)\s*\))?/g)) {
      const handler = named(match[2]);
      out.push({ mechanism: 'robfig/cron', schedule: match[1] ?? '', location: formatLocation(relPath, line), ...(handler ? { handler } : {}) });
    }
  }
  if (/go-co-op\/gocron/.test(text)) {
    for (const { match, line } of matchesWithLines(text, /\.Every\(([^)]*)\)\.?([\w.()"]*?)\.Do\(\s*([\w.]+)/g)) {
      out.push({ mechanism: 'gocron', schedule: `every ${match[1] ?? ''}${match[2] ? ` ${match[2]}` : ''}`, location: formatLocation(relPath, line), handler: named(match[3]) ?? '' });
    }
    for (const { match, line } of matchesWithLines(text, /\.NewJob\(\s*gocron\.(\w+)\(([^)]*)\)\s*,\s*gocron\.NewTask\(\s*([\w.]+)/g)) {
      out.push({ mechanism: 'gocron', schedule: `${match[1] ?? ''}(${match[2] ?? ''})`, location: formatLocation(relPath, line), handler: named(match[3]) ?? '' });
    }
  }
  for (const { match, line } of matchesWithLines(text, /\btime\.(?:NewTicker|Tick)\(([^)]*)\)/g)) out.push({ mechanism: 'time.Ticker', schedule: match[1] ?? '', location: formatLocation(relPath, line) });
  return out;
}
