/**
 * Test helper: real kafkajs `KafkaMessage` objects without a broker — records are encoded and
 * decoded by kafkajs's own RecordBatch encoder/decoder and wrapped by its consumer `Batch` class,
 * exactly as a fetch response would be.
 */
import { createRequire } from 'node:module';
import type { KafkaMessage } from 'kafkajs';

const require = createRequire(import.meta.url);
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as { RecordBatch: (batch: object) => Promise<{ buffer: Buffer }> };
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (record: object) => unknown;
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (decoder: unknown) => Promise<{ records: unknown[] }>;
const Decoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown;
const Batch = require('kafkajs/src/consumer/batch') as new (topic: string, fetchedOffset: string, partitionData: object) => { messages: KafkaMessage[]; partition: number; topic: string };
const Long = require('kafkajs/src/utils/long') as { fromInt(n: number): unknown };

export interface WireRecord {
  readonly value: string;
  readonly headers?: Record<string, string>;
}

/** Encodes `records` starting at `firstOffset` and returns kafkajs's decoded Batch. */
export async function wireBatch(topic: string, partition: number, firstOffset: number, records: readonly WireRecord[]) {
  const encoded = await RecordBatch({
    firstOffset: Long.fromInt(firstOffset),
    lastOffsetDelta: records.length - 1,
    records: records.map((record, offsetDelta) => Record({ offsetDelta, key: null, value: Buffer.from(record.value), headers: record.headers ?? {} })),
  });
  const { records: decoded } = await decodeRecordBatch(new Decoder(encoded.buffer));
  return new Batch(topic, String(firstOffset), { partition, highWatermark: String(firstOffset + records.length), messages: decoded });
}
