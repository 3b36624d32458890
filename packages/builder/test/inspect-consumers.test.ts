// Consumers, tasks and schedules in their real spellings, and the repository's own deduplication assessed.
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { scanExistingProtection } from '../src/inspect/existing-protection.js';
import { scanGoConsumers, scanGoSchedules } from '../src/inspect/patterns/go-consumers.js';
import { scanPython } from '../src/inspect/patterns/python.js';
import { scanScheduleManifest } from '../src/inspect/schedule-manifests.js';
import { proposeFromInspection } from '../src/questions/propose.js';
import { consumerActionName, jobActionName } from '../src/questions/naming.js';

const project = tempProjects('consumers');

describe('Celery', () => {
  it('reads beat in a celeryconfig module, app.conf.update and a computed schedule whose entries live in a builder function', async () => {
    const dir = project({
      'requirements.txt': 'celery==5.4\n',
      'celeryconfig.py': 'broker_url = "amqp://"\ntask_acks_late = False\nbeat_schedule = {\n    "sync": {"task": "shop.tasks.sync_stock", "schedule": 60},\n}\n',
      'shop/app.py': 'from celery import Celery\napp = Celery("shop")\napp.conf.update(\n    beat_schedule={"digest": {"task": "shop.tasks.digest", "schedule": crontab(hour=6)}},\n)\n',
      'proj/settings.py': 'CELERY_BEAT_SCHEDULE = build_beat_schedule()\n',
      'proj/beat.py': 'def build_beat_schedule():\n    entries = [\n        {"name": "mail", "task": "mail.tasks.poll", "env_default": "*/10 * * * *"},\n    ]\n    return {e["name"]: e for e in entries}\n',
      'shop/tasks.py': 'from celery import shared_task\n\n@shared_task\ndef sync_stock():\n    pass\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.schedulers.map((s) => [s.location, s.handler, s.schedule])).toEqual([
      ['celeryconfig.py:4', 'shop.tasks.sync_stock', 'every 60 s'],
      ['proj/beat.py:3', 'mail.tasks.poll', 'cron "*/10 * * * *"'],
      ['shop/app.py:4', 'shop.tasks.digest', 'crontab(hour=6)'],
    ]);
    // The settings module's acks_late = False decides the task: a crash loses it.
    expect(inspection.consumers[0]?.redelivery).toMatch(/^acks_late off \(set to False in the settings, celeryconfig\.py:2\)/);
  });

  it('keeps a computed beat schedule as a finding when no entry is found anywhere, and says the DB holds django-celery-beat schedules', async () => {
    const dir = project({
      'proj/settings.py': 'INSTALLED_APPS = ["django_celery_beat"]\nCELERY_TASK_ACKS_LATE = env.bool("ACKS_LATE")\nCELERY_BEAT_SCHEDULE = load_schedule()\n',
      'proj/setup.py': 'from django_celery_beat.models import PeriodicTask\nPeriodicTask.objects.update_or_create(name="nightly", task="billing.tasks.invoice", crontab=nightly)\n',
      'billing/tasks.py': 'from celery import shared_task\n@shared_task\ndef invoice():\n    pass\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.schedulers.map((s) => [s.mechanism, s.location, s.handler ?? null, s.note?.slice(0, 41).trim()])).toEqual([
      ['celery beat', 'proj/settings.py:3', null, 'computed at run time by `load_schedule()`'],
      ['django-celery-beat', 'proj/settings.py:1', null, 'schedules are rows in the database (djang'],
      ['django-celery-beat', 'proj/setup.py:2', 'billing.tasks.invoice', 'a database row created by this code; its'],
    ]);
    expect(inspection.consumers[0]?.redelivery).toMatch(/^acks_late comes from `env\.bool\("ACKS_LATE"\)` \(proj\/settings\.py:2\), decided at deploy time/);
    // Neither the DB notice nor the computed schedule becomes a protected action named after a file.
    const proposals = proposeFromInspection(inspection);
    expect(proposals.actions.map((a) => a.action.name)).toEqual(['invoice', 'scheduleInvoice']);
    expect(proposals.skipped.filter((s) => /django-celery-beat|celery beat/.test(s))).toHaveLength(2);
  });

  it('names tasks by their function, multi-line decorators included, and leaves Huey alone', () => {
    const text = 'from proj.celery import app\n\n@app.task(\n    bind=True,\n    acks_late=True,\n    queue="payments",\n)\ndef capture_payment(self, order_id):\n    pass\n';
    expect(scanPython('billing/tasks.py', text).findings.consumers).toEqual([expect.objectContaining({
      handler: 'capture_payment', channel: 'payments', location: 'billing/tasks.py:3', redelivery: expect.stringMatching(/^acks_late on \(`acks_late=True` on the task/),
    })]);
    expect(scanPython('jobs.py', 'from huey import RedisHuey\nhuey = RedisHuey()\n@huey.task()\ndef resize(p):\n    pass\n').findings.consumers).toEqual([]);
  });
});

describe('schedules in YAML', () => {
  it('Kubernetes CronJobs: schedule, command → job, concurrency policy; Helm templates reported as written; CI cron ignored', () => {
    const manifest = 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n  concurrencyPolicy: Replace\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n            - name: app\n              command: ["python", "manage.py", "close_books"]\n';
    expect(scanScheduleManifest('k8s/nightly.yaml', manifest)).toEqual([expect.objectContaining({
      mechanism: 'kubernetes CronJob', schedule: 'cron "0 3 * * *"', location: 'k8s/nightly.yaml:2', handler: 'close_books', note: expect.stringContaining('concurrencyPolicy Replace'),
    })]);
    expect(scanScheduleManifest('chart/templates/cron.yaml', 'kind: CronJob\nmetadata:\n  name: {{ .Release.Name }}-sync\nspec:\n  schedule: {{ .Values.schedule | quote }}\n')).toEqual([{
      mechanism: 'kubernetes CronJob', schedule: '{{ .Values.schedule | quote }}', location: 'chart/templates/cron.yaml:1', note: expect.stringMatching(/^a Helm template/),
    }]);
    expect(scanScheduleManifest('.github/workflows/nightly.yml', 'on:\n  schedule:\n    - cron: "0 0 * * *"\n')).toEqual([]);
  });

  it('sidekiq-scheduler in sidekiq.yml and Solid Queue recurring.yml', () => {
    expect(scanScheduleManifest('config/sidekiq.yml', ':scheduler:\n  :schedule:\n    refresh_rates:\n      every: "1h"\n      class: RefreshRatesJob\n')).toEqual([
      { mechanism: 'sidekiq-scheduler', schedule: 'every 1h', location: 'config/sidekiq.yml:3', handler: 'RefreshRatesJob' },
    ]);
    expect(scanScheduleManifest('config/recurring.yml', 'production:\n  cleanup:\n    class: CleanupJob\n    schedule: every day at 4am\n')).toEqual([
      { mechanism: 'solid_queue recurring', schedule: 'schedule every day at 4am', location: 'config/recurring.yml:2', handler: 'CleanupJob' },
    ]);
  });
});

describe('Go consumers and schedules', () => {
  it('sarama ConsumeClaim, confluent-kafka-go, amqp091 through QueueDeclare, NATS with a named handler, gocron', () => {
    const files: Record<string, string> = {
      'sarama.go': 'import "github.com/IBM/sarama"\nfunc (h *orderHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { return nil }\nfunc run() { _ = group.Consume(ctx, []string{"orders.created"}, &orderHandler{}) }\n',
      'confluent.go': 'import "github.com/confluentinc/confluent-kafka-go/v2/kafka"\nfunc sub() { _ = c.SubscribeTopics([]string{"refunds"}, nil) }\n',
      'amqp.go': 'import amqp "github.com/rabbitmq/amqp091-go"\nfunc q() {\n  q, _ := ch.QueueDeclare("emails", true, false, false, false, nil)\n  msgs, _ := ch.Consume(q.Name, "", false, false, false, false, nil)\n}\n',
      'nats.go': 'import "github.com/nats-io/nats.go"\nfunc n() { nc.Subscribe("invoices.paid", onInvoicePaid) }\n',
    };
    const found = Object.entries(files).flatMap(([path, text]) => scanGoConsumers(path, text));
    expect(found.map((c) => [c.broker, c.channel ?? null, c.handler ?? null, c.location])).toEqual([
      ['kafka', 'orders.created', 'orderHandler', 'sarama.go:2'],
      ['kafka', 'refunds', null, 'confluent.go:2'],
      ['rabbitmq', 'emails', null, 'amqp.go:4'],
      ['nats', 'invoices.paid', 'onInvoicePaid', 'nats.go:2'],
    ]);
    const cron = 'import "github.com/go-co-op/gocron/v2"\n_, _ = s.NewJob(gocron.CronJob("0 1 * * *", false), gocron.NewTask(svc.SettleDay))\n';
    expect(scanGoSchedules('jobs.go', cron)).toEqual([{ mechanism: 'gocron', schedule: 'CronJob("0 1 * * *", false)', location: 'jobs.go:2', handler: 'SettleDay' }]);
  });
});

describe('existing deduplication', () => {
  it('sees unique constraints in Prisma, SQLAlchemy, TypeORM, Mongoose, Knex and Drizzle — only on key columns', () => {
    const cases: Array<[string, string, string]> = [
      ['prisma/schema.prisma', 'model WebhookEvent {\n  id      Int    @id @default(autoincrement())\n  eventId String @unique\n}\n', 'eventId'],
      ['app/models.py', 'class Delivery(Base):\n    delivery_id = Column(String(64), nullable=False, unique=True)\n', 'delivery_id'],
      ['src/entities/event.ts', "@Entity()\nexport class InboxMessage {\n  @Column({ unique: true })\n  messageId: string;\n}\n", 'messageId'],
      ['src/models/event.js', "const schema = new Schema({\n  idempotencyKey: { type: String, required: true, unique: true },\n});\n", 'idempotencyKey'],
      ['migrations/001.js', "exports.up = (knex) => knex.schema.createTable('events', (t) => {\n  t.string('event_id').notNullable().unique();\n});\n", 'event_id'],
      ['src/db/schema.ts', "export const events = pgTable('events', {\n  requestId: text('request_id').notNull().unique(),\n});\n", 'request_id'],
    ];
    for (const [path, text, column] of cases) expect(scanExistingProtection(path, text).uniqueColumns.map((u) => u.column)).toEqual([column]);
    // A unique e-mail is no deduplication of events.
    expect(scanExistingProtection('app/models.py', 'email = models.EmailField(unique=True)\n').uniqueColumns).toEqual([]);
  });

  it('judges a read-then-check by the unique constraint elsewhere in the project, and reaches the document', async () => {
    const dir = project({
      'requirements.txt': 'django==5.1\ncelery==5.4\n',
      'orders/models.py': 'from django.db import models\n\nclass Refund(models.Model):\n    request_id = models.CharField(max_length=64, unique=True)\n',
      'orders/tasks.py': [
        'from celery import shared_task', 'from .models import Refund', '', '@shared_task(acks_late=True)', 'def refund(request_id, amount):',
        '    if Refund.objects.filter(request_id=request_id).exists():', '        return', '    Refund.objects.create(request_id=request_id, amount=amount)', '    notify_customer(request_id)', '',
        'def redis_claim(event_id):', '    if not r.set(f"seen:{event_id}", 1, nx=True, ex=3600):', '        return', '',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect((inspection.existingProtection ?? []).map((f) => `${f.kind} ${f.location}`)).toEqual([
      'unique-constraint orders/models.py:4',
      'read-then-check orders/tasks.py:6',
      'lock orders/tasks.py:12',
    ]);
    // The insert comes right after the check, under the unique constraint: only one duplicate proceeds.
    expect(inspection.existingProtection?.[1]?.race).toMatch(/^the unique constraint on `request_id` \(orders\/models\.py:4\) refuses the second insert \(orders\/tasks\.py:8\), so only one duplicate proceeds/);
    const { buildDesign } = await import('../src/design/build-design.js');
    const { answersSchema } = await import('../src/answers.js');
    const proposals = proposeFromInspection(inspection);
    const answers = answersSchema.parse({
      actions: proposals.actions.map((p) => p.action), stack: { language: 'python', framework: 'django', database: 'postgresql' },
      retrySources: ['queue-redelivery'], concurrency: 'multi-instance', retentionMs: 86_400_000, detectionLatencyMs: 1000, existingProtection: inspection.existingProtection,
    });
    const section = buildDesign(answers, { generatedAt: new Date(0) }).sections.find((s) => s.id === 'existing-protection');
    expect(JSON.stringify(section)).toContain('orders/tasks.py:6');
    expect(JSON.stringify(section)).toContain('refuses the second insert');
    // Not inspected: no claim either way; inspected and nothing found: says so.
    expect(buildDesign({ ...answers, existingProtection: undefined }, { generatedAt: new Date(0) }).sections.some((s) => s.id === 'existing-protection')).toBe(false);
    expect(JSON.stringify(buildDesign({ ...answers, existingProtection: [] }, { generatedAt: new Date(0) }).sections.find((s) => s.id === 'existing-protection'))).toContain('found no deduplication');
  });
});

describe('names from the real task', () => {
  it('a consumer is named after its task, worker or listener; a schedule after the task it triggers', () => {
    expect(consumerActionName(undefined, 'charge_subscriptions')).toBe('chargeSubscriptions');
    expect(consumerActionName('payments.captured', 'onPaymentCaptured')).toBe('onPaymentCaptured');
    expect(consumerActionName('order.paid', 'consume')).toBe('handleOrderPaid');
    expect(consumerActionName(undefined, 'Billing::ChargeOrderWorker')).toBe('chargeOrderWorker');
    expect(consumerActionName(undefined, 'delete', 'documents/bulk_edit.py:361')).toBe('bulkEditDelete');
    expect(jobActionName('config/settings.py:23', 'billing.tasks.charge_due_subscriptions')).toBe('chargeDueSubscriptions');
  });
});
