/** `@idempotency-builder/runtime/consumers/shared`: the broker-neutral part of every message consumer. */
export { decideOutcome, type ConsumeDecision, type DeadLetterReason, type MessageOutcome, type RequeueDelays, type RequeueReason } from './decision.js';
export { messageKey, payloadFingerprint, MissingMessageIdError, KEY_SOURCES, type KeySource } from './message-key.js';
export {
  resolveConsumerOptions,
  type ConsumerOptions,
  type MessageContext,
  type MessageHandler,
  type ResolvedConsumerOptions,
} from './consumer-options.js';
export { processMessage, type MessageView, type ProcessedMessage } from './process-message.js';
export { mapBatch } from './batch.js';
