// What each consumer and scheduler finding says a crash or an error does, against the libraries' own defaults.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { scanGoConsumers } from '../src/inspect/patterns/go-consumers.js';
import { scanJvmListeners, scanJvmSchedules } from '../src/inspect/patterns/jvm-listeners.js';
import { scanPython } from '../src/inspect/patterns/python.js';
import { scanRubyJobs } from '../src/inspect/patterns/ruby-jobs.js';
import { scanScheduleManifest } from '../src/inspect/schedule-manifests.js';

const only = <T extends { redelivery?: string }>(found: readonly T[]): string => {
  expect(found).toHaveLength(1);
  return found[0]?.redelivery ?? '';
};

describe('Spring listeners', () => {
  it('Kafka: BATCH commits, 10 attempts since 2.8, then the record is skipped', () => {
    const text = only(scanJvmListeners('L.java', '@KafkaListener(topics = "orders")\npublic void on(String m) {}\n'));
    expect(text).toMatch(/AckMode BATCH/);
    expect(text).toMatch(/10 attempts without delay by default.*logged and its offset committed/);
    expect(text).toMatch(/since 2\.8/);
  });

  it('SQS: the Spring Cloud AWS version comes from the import, and an explicit policy is named', () => {
    const v3 = only(scanJvmListeners('L.java', 'import io.awspring.cloud.sqs.annotation.SqsListener;\n@SqsListener("orders")\npublic void on(String m) {}\n'));
    expect(v3).toMatch(/^Spring Cloud AWS 3\.x .*ON_SUCCESS/);
    const v2 = only(scanJvmListeners('L.java', 'import io.awspring.cloud.messaging.listener.annotation.SqsListener;\n@SqsListener(value = "orders", deletionPolicy = SqsMessageDeletionPolicy.ON_SUCCESS)\npublic void on(String m) {}\n'));
    expect(v2).toMatch(/^Spring Cloud AWS 2\.x .*NO_REDRIVE.*lost/);
    expect(v2).toMatch(/sets `deletionPolicy = SqsMessageDeletionPolicy\.ON_SUCCESS`/);
    expect(only(scanJvmListeners('L.java', '@SqsListener("orders")\npublic void on(String m) {}\n'))).toMatch(/version decides it.*3\.x.*2\.x/);
  });

  it('JMS: at-least-once only with a transacted session; plain AUTO_ACKNOWLEDGE acks before the listener', () => {
    const text = only(scanJvmListeners('L.java', '@JmsListener(destination = "orders")\npublic void on(String m) {}\n'));
    expect(text).toMatch(/Spring Boot’s auto-configured listener factory the session is transacted/);
    expect(text).toMatch(/AUTO_ACKNOWLEDGE.*before the listener runs.*loses the message/);
  });

  it('Rabbit: requeued at once on an error, fatal conversion errors are not', () => {
    expect(only(scanJvmListeners('L.java', '@RabbitListener(queues = "q")\npublic void on(String m) {}\n'))).toMatch(/requeued at once.*conversion and validation failures are rejected without requeue/);
  });

  it('ShedLock: one instance at a time, with the caveats its README names', () => {
    const locked = '@Scheduled(cron = "0 0 2 * * *")\n@SchedulerLock(name = "settle", lockAtMostFor = "PT30M")\npublic void settle() {}\n';
    expect(scanJvmSchedules('J.java', locked)[0]?.note).toMatch(/^ShedLock .*one instance at a time.*outlasts lockAtMostFor.*lockAtLeastFor \(not set here\)/);
    const both = locked.replace('"PT30M"', '"PT30M", lockAtLeastFor = "PT1M"');
    expect(scanJvmSchedules('J.java', both)[0]?.note).not.toMatch(/not set here/);
  });
});

describe('Go consumers', () => {
  const kafkaGo = (config: string, loop: string): string => only(scanGoConsumers('w.go', `import "github.com/segmentio/kafka-go"\nr := kafka.NewReader(kafka.ReaderConfig{${config}Topic: "orders"})\n${loop}\n`));

  it('kafka-go: ReadMessage in a group commits before the handler, FetchMessage leaves it to the code, no GroupID commits nothing', () => {
    expect(kafkaGo('GroupID: "g", ', 'm, _ := r.ReadMessage(ctx)')).toMatch(/ReadMessage commits the offset before it returns.*at-most-once/);
    expect(kafkaGo('GroupID: "g", ', 'm, _ := r.FetchMessage(ctx)\nr.CommitMessages(ctx, m)')).toMatch(/FetchMessage commits nothing.*at-least-once/);
    expect(kafkaGo('GroupID: "g", CommitInterval: time.Second, ', 'm, _ := r.ReadMessage(ctx)')).toMatch(/neither at-least-once nor at-most-once/);
    expect(kafkaGo('', 'm, _ := r.ReadMessage(ctx)')).toMatch(/without GroupID commits nothing/);
  });

  it('confluent-kafka-go: background auto-commit of offsets stored on hand-over, unless the store is manual', () => {
    const sub = 'import "github.com/confluentinc/confluent-kafka-go/v2/kafka"\nfunc s() { _ = c.SubscribeTopics([]string{"refunds"}, nil) }\n';
    expect(only(scanGoConsumers('c.go', sub))).toMatch(/every 5 s.*neither at-least-once nor at-most-once/);
    expect(only(scanGoConsumers('c.go', `${sub}var cfg = &kafka.ConfigMap{"enable.auto.offset.store": false}\n`))).toMatch(/StoreMessage.*at-least-once/);
  });

  it('sarama commits what MarkMessage marked; NATS JetStream auto-acks a returning callback', () => {
    const sarama = 'import "github.com/IBM/sarama"\nfunc (h *orderHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { return nil }\n';
    expect(only(scanGoConsumers('s.go', sarama))).toMatch(/MarkMessage.*every second/);
    expect(only(scanGoConsumers('n.go', 'import "github.com/nats-io/nats.go"\nfunc n() { js.Subscribe("orders", onOrder) }\n'))).toMatch(/without limit unless MaxDeliver.*ManualAck/);
  });
});

describe('Sidekiq and ActiveJob', () => {
  const job = (options: string): string => only(scanRubyJobs('app/workers/w.rb', `class ChargeWorker\n  include Sidekiq::Job\n  ${options}\n  def perform(id); end\nend\n`));

  it('retry: false discards, retry: 0 goes to the Dead set, the default retries 25 times', () => {
    expect(job('sidekiq_options retry: false')).toMatch(/discarded — not retried, not kept in the Dead set/);
    expect(job('sidekiq_options retry: 0')).toMatch(/straight to the Dead set/);
    expect(job('sidekiq_options queue: "payments"')).toMatch(/25 times over about three weeks.*then moved to the Dead set/);
    expect(job('')).toMatch(/shutdown timeout \(25 s by default\)/);
  });

  it('retry_on: 5 attempts by default, then the adapter — or the block', () => {
    const active = (line: string): string => only(scanRubyJobs('app/jobs/j.rb', `class SendJob < ApplicationJob\n  ${line}\n  def perform; end\nend\n`));
    expect(active('retry_on Net::OpenTimeout')).toMatch(/\(5 attempts, the default\), then hands the error to the queue adapter/);
    expect(active('retry_on Net::OpenTimeout, wait: 5.seconds, attempts: 3')).toMatch(/\(3 attempts\)/);
    expect(active('retry_on(Net::OpenTimeout) do |job, error|')).toMatch(/then calls its block/);
  });
});

describe('Celery', () => {
  it('acks_late on: a killed pool process is acked unless reject_on_worker_lost; max_retries alone retries nothing', () => {
    const task = (args: string): string => only(scanPython('t.py', `from celery import shared_task\n@shared_task(${args})\ndef charge(i):\n    pass\n`).findings.consumers);
    expect(task('acks_late=True')).toMatch(/pool process killed mid-task .* acknowledged anyway.*unless `task_reject_on_worker_lost`/);
    expect(task('acks_late=True, reject_on_worker_lost=True')).toMatch(/requeues it too \(`reject_on_worker_lost` on the task, t\.py:2\)/);
    expect(task('max_retries=5')).toMatch(/`max_retries=5` caps the task’s own `self\.retry` calls/);
    expect(task('autoretry_for=(IOError,)')).toMatch(/`autoretry_for` re-runs it after those errors/);
  });

  it('the project-wide task_reject_on_worker_lost reaches the tasks', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ib-redelivery-'));
    const files: Record<string, string> = {
      'proj/settings.py': 'CELERY_TASK_ACKS_LATE = True\nCELERY_TASK_REJECT_ON_WORKER_LOST = True\n',
      'shop/tasks.py': 'from celery import shared_task\n@shared_task\ndef sync():\n    pass\n@shared_task(acks_late=True)\ndef charge():\n    pass\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const consumers = (await inspectCodebase(root)).consumers;
    expect(consumers.map((c) => /requeues it too \(`reject_on_worker_lost` in the settings, proj\/settings\.py:2\)/.test(c.redelivery ?? ''))).toEqual([true, true]);
  });
});

describe('Kubernetes CronJob', () => {
  const cronJob = (policy: string, backoff: string): string => scanScheduleManifest('k8s/c.yaml', [
    'kind: CronJob', 'metadata:', '  name: c', 'spec:', '  schedule: "0 1 * * *"', policy, '  jobTemplate:', '    spec:', backoff,
    '      template:', '        spec:', '          containers:', '            - name: app', '',
  ].filter((l) => l !== '').join('\n'))[0]?.note ?? '';

  it('names the Pod retries of the Job and what Replace does to a running Job', () => {
    expect(cronJob('', '')).toMatch(/concurrencyPolicy Allow.*up to 6 times \(the Job’s default backoffLimit\)/);
    expect(cronJob('  concurrencyPolicy: Replace', '      backoffLimit: 2')).toMatch(/still going when the next slot comes is replaced.*up to 2 times \(backoffLimit\)/);
  });
});
