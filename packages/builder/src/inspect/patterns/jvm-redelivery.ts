/**
 * What a crash or a failing listener does to a message under each Spring listener annotation, as
 * the libraries' own defaults decide it. The sources are named beside each text so a reader can
 * check it against the version in use; a default that changed between versions says which.
 */

/**
 * Spring for Apache Kafka: AckMode BATCH is the default and the container turns Kafka's
 * `enable.auto.commit` off since 2.3 (reference, "Committing Offsets"); the default error handler
 * is `DefaultErrorHandler` since 2.8 (SeekToCurrentErrorHandler from 2.5) with
 * `SeekUtils.DEFAULT_BACK_OFF = new FixedBackOff(0, 9)` and a recoverer that only logs.
 */
export const SPRING_KAFKA_REDELIVERY =
  'Spring Kafka commits the offsets once every record of a poll() has been processed (AckMode BATCH, the default; Kafka’s own auto-commit is off since 2.3): a crash or a rebalance before that commit delivers the records again — at-least-once. ' +
  'A listener that throws is re-run by the DefaultErrorHandler (since 2.8; SeekToCurrentErrorHandler from 2.5): 10 attempts without delay by default, after which the record is only logged and its offset committed — lost unless a recoverer such as a dead-letter topic is configured';

/**
 * Spring AMQP: AcknowledgeMode.AUTO acks when the listener returns; an exception rejects the
 * message with requeue (`defaultRequeueRejected` true), except what ConditionalRejectingErrorHandler
 * classes as fatal (conversion and validation failures), which is rejected without requeue.
 */
export const SPRING_AMQP_REDELIVERY =
  'Spring AMQP acknowledges when the listener returns (AcknowledgeMode.AUTO, the default): a crash before the ack delivers the message again — at-least-once. ' +
  'A listener that throws has the message rejected and requeued at once (defaultRequeueRejected), so it runs again and again until it succeeds or a dead-letter exchange or retry interceptor stops it; conversion and validation failures are rejected without requeue';

/**
 * Spring JMS: AUTO_ACKNOWLEDGE in the DefaultMessageListenerContainer acknowledges before the
 * listener runs (AbstractMessageListenerContainer javadoc); Spring Boot's
 * DefaultJmsListenerContainerFactoryConfigurer sets `sessionTransacted` when no JTA transaction
 * manager is present, and a transacted session acknowledges on commit, after the listener.
 */
export const SPRING_JMS_REDELIVERY =
  'with Spring Boot’s auto-configured listener factory the session is transacted (no JTA transaction manager): the message is acknowledged when the listener returns, so a crash or a listener that throws has the broker deliver it again, as often as its redelivery policy allows — at-least-once. ' +
  'A factory built by hand without `sessionTransacted` keeps AUTO_ACKNOWLEDGE, which the DefaultMessageListenerContainer applies before the listener runs: a crash or an error then loses the message';

/**
 * Spring Cloud AWS: 3.x acknowledges (deletes) ON_SUCCESS by default; 2.x (and the older
 * org.springframework.cloud.aws packages) default to the NO_REDRIVE deletion policy, which deletes
 * a message whose listener threw when the queue has no redrive policy
 * (SimpleMessageListenerContainer#applyDeletionPolicyOnError).
 */
const SQS_V3 = 'Spring Cloud AWS 3.x deletes the message only after the listener succeeds (acknowledgement mode ON_SUCCESS, the default): a crash, an error or a run longer than the visibility timeout delivers it again — at-least-once, and a standard queue may also deliver it twice on its own';
const SQS_V2 = 'Spring Cloud AWS 2.x deletes the message after the listener succeeds, and also after it throws when the queue has no redrive policy (deletion policy NO_REDRIVE, the default) — that message is lost; with a redrive policy an error, a crash or a run longer than the visibility timeout delivers it again — at-least-once';

/**
 * The SQS text for one file: the version follows from the annotation's package; an explicit
 * `deletionPolicy` or `acknowledgementMode` on the annotation is named, since it overrides the default.
 * @example sqsRedelivery('import io.awspring.cloud.sqs.annotation.SqsListener;', '("orders")') // starts 'Spring Cloud AWS 3.x'
 */
export function sqsRedelivery(fileText: string, annotationText: string): string {
  const v3 = /\bio\.awspring\.cloud\.sqs\b/.test(fileText);
  const v2 = /\bmessaging\.listener\.annotation\.SqsListener\b/.test(fileText);
  const base = v3 && !v2 ? SQS_V3 : v2 && !v3 ? SQS_V2 : `the Spring Cloud AWS version decides it (no import of its SqsListener read here): ${SQS_V3}; ${SQS_V2}`;
  const explicit = /\b(deletionPolicy|acknowledgementMode)\s*=\s*([\w."]+)/.exec(annotationText);
  return explicit ? `${base}. This listener sets \`${explicit[1]} = ${explicit[2]}\`, which overrides that default` : base;
}
