/**
 * Spring message listeners and schedules in Java and Kotlin: `@KafkaListener`, `@RabbitListener`,
 * `@JmsListener`, `@SqsListener` (any attribute order, arrays, `${property}` placeholders and
 * constants), `@Scheduled(cron | fixedRate | fixedDelay …)` with ShedLock, and Quartz cron
 * triggers. Each finding names the annotated method (or class) and what redelivery means for it.
 */
import { formatLocation } from '../location.js';
import type { Broker, ConsumerFinding, SchedulerFinding } from '../types.js';
import { keyword, oneLine, splitArgs } from './python-args.js';
import { callText, matchesWithLines, nextLineMatching } from './line-patterns.js';
import { SPRING_AMQP_REDELIVERY, SPRING_JMS_REDELIVERY, SPRING_KAFKA_REDELIVERY, sqsRedelivery } from './jvm-redelivery.js';

const LISTENERS: Record<string, { broker: Broker; attributes: readonly string[]; redelivery?: string }> = {
  Kafka: { broker: 'kafka', attributes: ['topics', 'topicPattern'], redelivery: SPRING_KAFKA_REDELIVERY },
  Rabbit: { broker: 'rabbitmq', attributes: ['queues', 'queuesToDeclare', 'bindings'], redelivery: SPRING_AMQP_REDELIVERY },
  Jms: { broker: 'other', attributes: ['destination'], redelivery: SPRING_JMS_REDELIVERY },
  // The SQS text depends on the Spring Cloud AWS version, read from the file (sqsRedelivery).
  Sqs: { broker: 'sqs', attributes: ['value', 'queueNames'] },
};

/** `"a"`, `{"a", "b"}`, `[A, B]`, `@Queue("x")` → the names as written, placeholders kept, constants resolved in the file. */
function channelOf(expr: string, constants: ReadonlyMap<string, string>): string {
  const parts = [...expr.matchAll(/"([^"]*)"|\b([A-Z][\w]*\.)?([A-Z][A-Z0-9_]+)\b/g)].map((m) => m[1] ?? constants.get(m[3] ?? '') ?? m[3] ?? '');
  return [...new Set(parts.filter(Boolean))].join(', ');
}

/** String constants declared in the file: `static final String TOPIC = "x"`, Kotlin `const val TOPIC = "x"`. */
export function jvmConstants(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { match } of matchesWithLines(text, /\b(?:static\s+final\s+String|final\s+static\s+String|const\s+val|val)\s+([A-Z][A-Z0-9_]+)\s*(?::\s*String\s*)?=\s*"([^"]*)"/g)) {
    out.set(match[1] ?? '', match[2] ?? '');
  }
  return out;
}

/** The method (or class) an annotation ending on `line` sits on. */
function annotated(text: string, line: number): string | undefined {
  const found = nextLineMatching(text, line + 1, /^(?!\s*@)\s*(?:[\w\s]*\bclass\s+(\w+)|.*?\bfun\s+(\w+)\s*\(|(?:(?:public|protected|private|static|final|synchronized|suspend|override|open)\s+)*(?:<[^>]+>\s*)?[\w.<>[\], ?]+\s+(\w+)\s*\()/, 8);
  return found ? found.match[1] ?? found.match[2] ?? found.match[3] : undefined;
}

function annotationArgs(text: string, index: number, name: string): { args: string[]; endLine: number; raw: string } {
  const after = index + name.length;
  if (text[after] !== '(') return { args: [], endLine: 0, raw: '' };
  const call = callText(text, after);
  return { args: splitArgs(call.slice(1, -1)), endLine: call.split('\n').length - 1, raw: call };
}

/**
 * Listener methods of one file as consumers.
 * @example scanJvmListeners('Events.java', '@KafkaListener(id = "p", topics = "payments")\npublic void onPayment(String m) {}')[0] // { broker: 'kafka', channel: 'payments', handler: 'onPayment', ... }
 */
export function scanJvmListeners(relPath: string, text: string): ConsumerFinding[] {
  const constants = jvmConstants(text);
  const out: ConsumerFinding[] = [];
  for (const { match, line, index } of matchesWithLines(text, /@(Kafka|Rabbit|Jms|Sqs)Listener\b/g)) {
    const spec = LISTENERS[match[1] ?? ''];
    if (!spec) continue;
    const { args, endLine, raw } = annotationArgs(text, index, match[0]);
    const named = spec.attributes.map((a) => keyword(args, a)).find(Boolean);
    const first = args.find((a) => !/^\w+\s*=/.test(a));
    const expr = named ?? first;
    const channel = expr ? channelOf(expr, constants) : undefined;
    const handler = annotated(text, line + endLine);
    out.push({
      broker: spec.broker, ...(channel ? { channel } : {}), location: formatLocation(relPath, line), evidence: oneLine(`${match[0]}${raw}`, 100),
      ...(handler ? { handler } : {}), redelivery: spec.redelivery ?? sqsRedelivery(text, raw),
    });
  }
  return out;
}

/** `cron = "0 0 * * * *"` → `cron "0 0 * * * *"`; `fixedRate = 5000` → `fixedRate 5000 ms`. */
function scheduledText(args: readonly string[]): { schedule?: string; placeholder?: string } {
  for (const attribute of ['cron', 'fixedRate', 'fixedDelay', 'fixedRateString', 'fixedDelayString']) {
    const value = keyword(args, attribute);
    if (!value) continue;
    const name = attribute.replace(/String$/, '');
    const literal = /^"([^"]*)"$/.exec(value)?.[1];
    const placeholder = /\$\{([^}:]+)/.exec(value)?.[1];
    const unit = keyword(args, 'timeUnit')?.replace(/^.*\./, '').toLowerCase() ?? 'ms';
    const shown = attribute === 'cron' ? `cron ${value}` : literal !== undefined && !placeholder ? `${name} ${literal}` : `${name} ${value}${/^\d+L?$/.test(value) ? ` ${unit === 'milliseconds' ? 'ms' : unit}` : ''}`;
    return { schedule: shown, ...(placeholder ? { placeholder } : {}) };
  }
  const only = args.find((a) => /^"/.test(a));
  return only ? { schedule: `cron ${only}` } : {};
}

/**
 * ShedLock skips a run while another instance holds the lock; its README's caveats say when one
 * slot still runs twice: a run longer than lockAtMostFor, or clocks further apart than
 * lockAtLeastFor (0 unless set) and the run's own length.
 */
function shedLockNote(args: string): string {
  const atLeast = /lockAtLeastFor/.test(args) ? 'lockAtLeastFor' : 'lockAtLeastFor (not set here)';
  return `ShedLock \`@SchedulerLock(${oneLine(args, 60)})\` lets one instance at a time run it, the others skip; one slot still runs twice when a run outlasts lockAtMostFor or the instances’ clocks differ by more than ${atLeast} and the run’s own length`;
}

/**
 * `@Scheduled` methods and Quartz cron triggers of one file.
 * @example scanJvmSchedules('Cleanup.java', '@Scheduled(cron = "0 0 * * * *")\npublic void purge() {}')[0].handler // 'purge'
 */
export function scanJvmSchedules(relPath: string, text: string): SchedulerFinding[] {
  const out: SchedulerFinding[] = [];
  for (const { match, line, index } of matchesWithLines(text, /@Scheduled\b/g)) {
    const { args, endLine } = annotationArgs(text, index, match[0]);
    const { schedule, placeholder } = scheduledText(args);
    const handler = annotated(text, line + endLine);
    const method = handler ? new RegExp(`(?:@SchedulerLock\\(([^)]*)\\)[\\s\\S]{0,200}?)\\b${handler}\\s*\\(`).exec(text.slice(index, index + 600)) : null;
    const lock = method?.[1] !== undefined ? shedLockNote(method[1] ?? '') : 'runs on every instance with scheduling enabled: N replicas run it N times per slot unless a lock (e.g. ShedLock) is added';
    const note = [placeholder ? `the schedule is set in configuration (\`${placeholder}\`)` : undefined, lock].filter(Boolean).join('; ');
    out.push({ mechanism: '@Scheduled', ...(schedule ? { schedule } : {}), location: formatLocation(relPath, line), ...(handler ? { handler } : {}), note });
  }
  for (const { match, line } of matchesWithLines(text, /\bcronSchedule\(\s*"([^"]+)"/g)) {
    const job = /\bnewJob\(\s*(\w+)(?:\.class|::class\.java)/.exec(text)?.[1];
    out.push({ mechanism: 'quartz', schedule: `cron "${match[1] ?? ''}"`, location: formatLocation(relPath, line), ...(job ? { handler: job } : {}) });
  }
  return out;
}

/**
 * Project-wide: a listener channel that names a constant declared in another file gets its value,
 * when exactly one file declares that constant.
 * @example resolveJvmChannels(consumers, [{ name: 'const:ORDERS_TOPIC', value: 'orders', location: 'Topics.kt:3' }])
 */
export function resolveJvmChannels(consumers: readonly ConsumerFinding[], settings: ReadonlyArray<{ name: string; value: string; location: string }>): ConsumerFinding[] {
  const values = new Map<string, Set<string>>();
  for (const s of settings) if (s.name.startsWith('const:')) values.set(s.name.slice(6), (values.get(s.name.slice(6)) ?? new Set()).add(s.value));
  if (values.size === 0) return [...consumers];
  return consumers.map((c) => {
    if (!c.channel || !/\.(java|kt):\d+$/.test(c.location)) return c;
    const channel = c.channel.split(', ').map((part) => {
      const known = values.get(part);
      return known && known.size === 1 ? [...known][0] ?? part : part;
    }).join(', ');
    return channel === c.channel ? c : { ...c, channel };
  });
}
