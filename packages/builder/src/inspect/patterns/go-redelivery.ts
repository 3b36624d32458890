/**
 * What a crash or a failing handler does to a message under each Go client, as the client's own
 * defaults decide it. Kafka clients differ most: one commits before the handler runs, one commits
 * what the code marks, one commits in the background whatever it has handed out. The sources are
 * named beside each text.
 */

/**
 * segmentio/kafka-go: `ReadMessage` commits the offset before it returns when the Reader has a
 * GroupID ("this could result in an offset being committed before the message is fully
 * processed"); `FetchMessage` never commits; `CommitInterval` (default 0 = synchronous) turns
 * commits into a periodic background flush; a Reader without GroupID commits nothing. `call`
 * names the one read call a finding stands for, when the reader is built in another file.
 * @example kafkaGoRedelivery('r.ReadMessage(ctx)', 'kafka.ReaderConfig{GroupID: "g", Topic: "t"}') // starts 'kafka-go’s ReadMessage commits'
 */
export function kafkaGoRedelivery(fileText: string, readerConfig?: string, call?: 'ReadMessage' | 'FetchMessage'): string {
  if (readerConfig !== undefined && !/\bGroupID\s*:/.test(readerConfig)) {
    return 'a kafka-go Reader without GroupID commits nothing: after a restart it reads again from the offset the code sets (the partition’s first offset by default), so every message since then is delivered again';
  }
  const interval = /\bCommitInterval\s*:/.test(readerConfig ?? fileText);
  // One read loop speaks for itself; a reader's finding covers every read call of the file.
  const reads = call ? call === 'ReadMessage' : /\.ReadMessage\(/.test(fileText);
  const fetches = call ? call === 'FetchMessage' : /\.FetchMessage\(/.test(fileText);
  const readText = interval
    ? 'kafka-go’s ReadMessage marks the offset committed before it returns the message, and `CommitInterval` flushes those commits in the background: a crash loses a message whose commit was flushed while its handler ran and redelivers what was read since the last flush — neither at-least-once nor at-most-once'
    : 'kafka-go’s ReadMessage commits the offset before it returns the message (consumer group): a crash while the handler runs, or a handler error the code does not retry itself, loses the message — at-most-once';
  const fetchText = 'kafka-go’s FetchMessage commits nothing: the offset is committed when the code calls CommitMessages — after the handler, a crash before it delivers the message again (at-least-once); before the handler, a crash loses it';
  if (reads && !fetches) return readText;
  if (fetches && !reads) return fetchText;
  return `${readText}; ${fetchText}`;
}

/**
 * IBM/sarama: `Consumer.Offsets.AutoCommit.Enable` is true with a 1 s interval, and it commits the
 * offsets marked by `MarkMessage`/`MarkOffset` ("it may never be committed if your application
 * crashes. This means that you may end up processing the same message twice").
 */
export const SARAMA_REDELIVERY =
  'sarama commits the offsets the handler marks (`MarkMessage`) every second in the background (Consumer.Offsets.AutoCommit, on by default): a message marked after its work is delivered again after a crash before the next commit — at-least-once; one marked before its work is done is lost if the crash falls in between';

/**
 * confluentinc/confluent-kafka-go (librdkafka): `enable.auto.commit` true every
 * `auto.commit.interval.ms` = 5000, and `enable.auto.offset.store` true stores the offset of each
 * message as it is handed to the application (librdkafka INTRODUCTION.md, "At-least-once processing").
 * @example confluentRedelivery('"enable.auto.offset.store": false') // starts 'confluent-kafka-go with enable.auto.offset.store false'
 */
export function confluentRedelivery(fileText: string): string {
  if (/["']enable\.auto\.offset\.store["']\s*:\s*false/.test(fileText)) {
    return 'confluent-kafka-go with enable.auto.offset.store false commits only the offsets the code stores (StoreMessage/StoreOffsets): stored after the handler, a crash before the next commit (every 5 s by default) delivers the message again — at-least-once';
  }
  if (/["']enable\.auto\.commit["']\s*:\s*false/.test(fileText)) {
    return 'confluent-kafka-go with enable.auto.commit false commits where the code calls Commit: after the handler, a crash before it delivers the message again (at-least-once); before it, a crash loses the message';
  }
  return 'confluent-kafka-go (librdkafka) stores each message’s offset as soon as it hands the message over and commits stored offsets every 5 s in the background (enable.auto.commit and enable.auto.offset.store on by default): a crash redelivers what came since the last commit, and loses a message whose offset was committed while its handler still ran — neither at-least-once nor at-most-once until enable.auto.offset.store is false and the offset is stored after the handler';
}

/** rabbitmq/amqp091-go: "When autoAck (also known as noAck) is true, the server will acknowledge deliveries … prior to writing the delivery to the network". */
export const AMQP_REDELIVERY = 'with manual acks a crash before `Ack` delivers the message again (at-least-once); with `autoAck` true the broker counts it acknowledged as it sends it, so a crash loses it';

/**
 * nats-server: AckWait defaults to 30 s and MaxDeliver 0 becomes -1 (unlimited); nats.go's
 * `js.Subscribe` with a callback acks when the callback returns unless `nats.ManualAck()` is given.
 */
export const NATS_REDELIVERY =
  'core NATS (`nc.Subscribe`) delivers at most once: a crash loses the message. A JetStream consumer redelivers a message not acked within AckWait (30 s by default), without limit unless MaxDeliver is set — at-least-once; `js.Subscribe` with a callback acks when the callback returns (unless `nats.ManualAck()`), so a handler that fails without crashing is not redelivered';

/** AWS SQS developer guide: a message not deleted within the visibility timeout is received again; standard queues deliver "at least once". */
export const SQS_REDELIVERY = 'a message not deleted before its visibility timeout ends is delivered again — at-least-once, and a standard queue may also deliver it twice on its own';
