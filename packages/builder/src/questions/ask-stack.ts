/**
 * Question 2 — the stack. Parts found in the code or the answers file are not asked; missing
 * parts are asked with what is already known shown. Language and database are critical: unknown
 * after a second ask (with examples) means the design goes technology-agnostic.
 */
import { DATABASES, type Answers } from '../answers.js';
import type { PartialAnswers } from '../answers-file.js';
import type { Proposals, Proposed, Provenance } from './propose.js';
import type { Choice, PromptPort } from './prompt-port.js';
import type { QuestionNumbers } from './question-numbers.js';

type Stack = Answers['stack'];
type Language = Stack['language'];
type Framework = Stack['framework'];
type Database = Stack['database'];
type Broker = Stack['broker'];

/** "I don't know": kept apart from the enums so `other` still means "something else". */
export const UNSURE = '?';

const LANGUAGE_CHOICES: Choice<Language | typeof UNSURE>[] = [
  { value: 'typescript', label: 'TypeScript' }, { value: 'javascript', label: 'JavaScript (Node.js)' },
  { value: 'python', label: 'Python' }, { value: 'go', label: 'Go' }, { value: 'java', label: 'Java' },
  { value: 'kotlin', label: 'Kotlin' }, { value: 'csharp', label: 'C# / .NET' }, { value: 'ruby', label: 'Ruby' },
  { value: 'php', label: 'PHP' }, { value: 'other', label: 'Something else' }, { value: UNSURE, label: "I don't know" },
];

const FRAMEWORKS_BY_LANGUAGE: Record<Language, Framework[]> = {
  typescript: ['express', 'fastify', 'nestjs', 'hono', 'koa', 'nextjs'], javascript: ['express', 'fastify', 'nestjs', 'hono', 'koa', 'nextjs'],
  python: ['fastapi', 'flask', 'django'], go: ['gin', 'net-http'], java: ['spring'], kotlin: ['spring'], csharp: ['aspnet'],
  ruby: ['rails'], php: ['laravel'], other: [],
};

const DATABASE_LABELS: Record<Database, string> = {
  postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB', sqlite: 'SQLite', redis: 'Redis', dynamodb: 'DynamoDB',
  mongodb: 'MongoDB', other: 'Something else', unknown: "I don't know",
};

const BROKER_CHOICES: Choice<Broker>[] = [
  { value: 'none', label: 'No message broker' }, { value: 'rabbitmq', label: 'RabbitMQ' }, { value: 'kafka', label: 'Kafka' },
  { value: 'nats', label: 'NATS / JetStream' }, { value: 'sqs', label: 'Amazon SQS' }, { value: 'bullmq', label: 'BullMQ (Redis)' },
  { value: 'other', label: 'Something else' },
];

/** Brokers a free-text answer may name that the design knows by another label. */
const BROKER_WORDS: Array<[RegExp, Broker]> = [
  [/rabbit|amqp/i, 'rabbitmq'], [/kafka|redpanda|msk/i, 'kafka'], [/nats|jetstream/i, 'nats'], [/\bsqs\b/i, 'sqs'], [/bull/i, 'bullmq'],
];

/** "Something else": asks which, and keeps the name in the provenance (the document shows it). */
async function askOtherBroker(prompts: PromptPort): Promise<Proposed<Broker>> {
  const name = (await prompts.text({
    id: 'stack.broker.other',
    message: 'Which message broker? (e.g. Pulsar, Google Pub/Sub, Azure Service Bus, Redis Streams)',
    placeholder: 'Pulsar',
  })).trim();
  const known = BROKER_WORDS.find(([pattern]) => pattern.test(name))?.[1];
  if (known) return { value: known, provenance: { source: 'user', detail: `named as "${name}"` } };
  if (name === '') return { value: 'other', provenance: { source: 'user', detail: 'another broker, not named; the design treats it as at-least-once delivery' } };
  return { value: 'other', provenance: { source: 'user', detail: `${name}: not one the generated consumer code covers; the design treats it as at-least-once delivery` } };
}

export interface StackResult {
  readonly stack: Stack;
  /** False when language or database stayed unknown after two asks (or could not be asked). */
  readonly resolved: boolean;
  readonly provenance: Record<string, Provenance>;
}

type Known<T> = Proposed<T> | undefined;

function known<T>(fromFile: T | undefined, fromCode: Known<T>, fileName: string): Known<T> {
  if (fromFile !== undefined) return { value: fromFile, provenance: { source: 'file', detail: fileName } };
  return fromCode;
}

function summary(parts: Array<[string, Known<string>]>): string {
  const found = parts.filter(([, part]) => part).map(([label, part]) => `${label} ${part?.value}${part?.provenance.source === 'code' ? ` (${part.provenance.detail})` : ''}`);
  return found.length > 0 ? ` Known so far: ${found.join(', ')}.` : '';
}

/**
 * Resolves question 2 from the answers file, the code and — when a terminal is there — the user.
 * @example const { stack, resolved } = await resolveStack({ proposals, file: {}, fileName: '', prompts });
 */
export async function resolveStack({ proposals, file, fileName, prompts, numbers }: {
  proposals: Proposals; file: PartialAnswers; fileName: string; prompts: PromptPort | undefined; numbers?: QuestionNumbers;
}): Promise<StackResult> {
  let language = known(file.stack?.language, proposals.language, fileName);
  let framework = known(file.stack?.framework, proposals.framework, fileName);
  let database = known(file.stack?.database === 'unknown' ? undefined : file.stack?.database, proposals.database, fileName);
  let broker = known(file.stack?.broker, proposals.broker, fileName);
  const testFramework = known(file.stack?.testFramework, proposals.testFramework, fileName);
  // The level read from the build files belongs to the language found there; an answers file's own stack replaces both.
  const level = file.stack?.level ?? (file.stack?.language === undefined || file.stack.language === proposals.language?.value ? proposals.level : undefined);
  const user = { source: 'user' } as const;
  const context = (): string => summary([['language', language], ['framework', framework], ['database', database], ['broker', broker]]);
  const label = (): string => numbers?.label(2) ?? 'Question 2';
  const asksAny = prompts && (!language || !framework || !database || !broker);
  if (!asksAny && (language ?? database)) numbers?.answered(2, 'the stack', (language ?? database)!.provenance);

  if (!language && prompts) {
    let answer = await prompts.select({ id: 'stack.language', message: `${label()} — your stack: which language is the service written in?${context()}`, options: LANGUAGE_CHOICES });
    if (answer === UNSURE) {
      answer = await prompts.select({
        id: 'stack.language.again',
        message: 'Question 2 once more, with examples: the language of the code that runs the action — e.g. TypeScript/JavaScript on Node.js (Express, NestJS), Python (FastAPI, Django), Go (gin), Java/Kotlin (Spring Boot).',
        options: LANGUAGE_CHOICES,
      });
    }
    if (answer !== UNSURE) language = { value: answer, provenance: user };
  }
  if (!framework && language && prompts) {
    const fits = FRAMEWORKS_BY_LANGUAGE[language.value];
    const options: Choice<Framework>[] = [...fits.map((value) => ({ value, label: value })), { value: 'other', label: 'Another framework' }, { value: 'none', label: 'No web framework' }];
    framework = { value: await prompts.select({ id: 'stack.framework', message: `${label()} — your stack: which framework serves the action?${context()}`, options }), provenance: user };
  }
  if (!database && prompts) {
    const options: Choice<Database | typeof UNSURE>[] = DATABASES.filter((d) => d !== 'unknown').map((value) => ({ value, label: DATABASE_LABELS[value] }));
    options.push({ value: UNSURE, label: "I don't know" });
    let answer = await prompts.select({ id: 'stack.database', message: `${label()} — your stack: which database does the service write to (the idempotency store lives there)?${context()}`, options });
    if (answer === UNSURE) {
      answer = await prompts.select({
        id: 'stack.database.again',
        message: 'Question 2 once more, with examples: the database holding the records the action changes — e.g. PostgreSQL, MySQL/MariaDB, SQLite, Redis, DynamoDB or MongoDB.',
        options,
      });
    }
    if (answer !== UNSURE) database = { value: answer, provenance: user };
  }
  if (!broker && prompts) {
    const chosen = await prompts.select({ id: 'stack.broker', message: `${label()} — your stack: which message broker, if any?${context()}`, options: BROKER_CHOICES, initialValue: 'none' });
    broker = chosen === 'other' ? await askOtherBroker(prompts) : { value: chosen, provenance: user };
  }

  const provenance: Record<string, Provenance> = {};
  const record = (key: string, part: Known<unknown>, fallback: string): void => {
    provenance[key] = part?.provenance ?? { source: 'assumption', detail: fallback };
  };
  record('stack.language', language, 'the language is unknown; the sample code is TypeScript and needs porting');
  record('stack.framework', framework, language ? 'no web framework was found in the code' : 'the framework is unknown');
  // A known language and framework are enough to generate real code: without a database the
  // runtime's embedded SQLite store is used (design/plan/stack.ts), never a technology-agnostic sketch.
  const knownService = Boolean(language && framework && framework.value !== 'none' && framework.value !== 'other');
  record(
    'stack.database',
    database,
    knownService ? "no database was found in the code or its manifests; the runtime's embedded SQLite store is used" : 'the database is unknown; the PostgreSQL reference schema is used',
  );
  record('stack.broker', broker, 'no message broker client was found in the code');
  return {
    stack: {
      language: language?.value ?? 'other',
      framework: framework?.value ?? 'none',
      database: database?.value ?? 'unknown',
      broker: broker?.value ?? 'none',
      ...(testFramework ? { testFramework: testFramework.value } : {}),
      ...(level ? { level } : {}),
    },
    resolved: Boolean(language && (database || knownService)),
    provenance,
  };
}
