/**
 * Turns the raw evidence into one conclusion per stack question (language, framework, database,
 * broker), each still pointing at the `path:line` that justifies it. Conclusions prefer code over
 * manifests and the system of record over caches.
 */
import type { Broker, ConsumerFinding, Database, EndpointFinding, Framework, Language, TechFinding } from './types.js';

/** Primary-store preference: a relational database is the system of record over a cache. */
const DATABASE_RANK: Record<Database, number> = {
  postgresql: 5, mysql: 5, mariadb: 5, sqlite: 4, dynamodb: 3, mongodb: 3, redis: 2, other: 1, unknown: 0,
};

const FRAMEWORK_RANK: Framework[] = [
  'nestjs', 'nextjs', 'fastify', 'hono', 'express', 'koa', 'spring', 'fastapi', 'django', 'flask', 'gin', 'aspnet', 'rails', 'laravel', 'net-http',
];

function countBy<T extends string>(values: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/**
 * The language with the most source files; a manifest's language wins ties and gives the location.
 * @example chooseLanguage(new Map([['typescript', 12]]), [{ value: 'typescript', location: 'package.json:1', evidence: 'package.json' }])
 */
export function chooseLanguage(
  fileCounts: ReadonlyMap<Language, { count: number; first: string }>,
  manifests: readonly TechFinding<Language>[],
): TechFinding<Language> | undefined {
  let best: Language | undefined;
  let bestScore = 0;
  for (const [language, { count }] of fileCounts) {
    const declared = manifests.some((m) => m.value === language) ? 0.5 : 0;
    if (count + declared > bestScore) {
      best = language;
      bestScore = count + declared;
    }
  }
  if (!best) return manifests[0];
  const manifest = manifests.find((m) => m.value === best);
  if (manifest) return manifest;
  const first = fileCounts.get(best);
  return { value: best, location: `${first?.first ?? '.'}:1`, evidence: `${first?.count ?? 0} source files` };
}

/**
 * The framework that declares the most mutating endpoints, else the highest-ranked declared one.
 * @example chooseFramework([{ framework: 'express', location: 'src/app.ts:9', ... }], [])
 */
export function chooseFramework(endpoints: readonly EndpointFinding[], declared: readonly TechFinding<Framework>[]): TechFinding<Framework> | undefined {
  const counts = countBy(endpoints.map((e) => e.framework).filter((f) => f !== 'other'));
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || FRAMEWORK_RANK.indexOf(a[0]) - FRAMEWORK_RANK.indexOf(b[0]));
  const winner = ranked[0]?.[0];
  if (winner) {
    const manifest = declared.find((d) => d.value === winner);
    if (manifest) return manifest;
    const first = endpoints.find((e) => e.framework === winner) as EndpointFinding;
    return { value: winner, location: first.location, evidence: `${counts.get(winner)} mutating endpoint(s)` };
  }
  return [...declared].sort((a, b) => rank(a.value) - rank(b.value))[0];
}

function rank(framework: Framework): number {
  const index = FRAMEWORK_RANK.indexOf(framework);
  return index < 0 ? FRAMEWORK_RANK.length : index;
}

/**
 * The system-of-record database: highest rank, then most evidence, code evidence first.
 * @example chooseDatabase([{ value: 'redis', ... }, { value: 'postgresql', ... }]).value // 'postgresql'
 */
export function chooseDatabase(evidence: readonly TechFinding<Database>[]): TechFinding<Database> | undefined {
  return chooseByScore(evidence, (value, count) => DATABASE_RANK[value] * 100 + count);
}

/**
 * The broker with consumers first, then the one with most evidence.
 * @example chooseBroker([{ value: 'rabbitmq', ... }], [{ broker: 'rabbitmq', ... }]).value // 'rabbitmq'
 */
export function chooseBroker(evidence: readonly TechFinding<Broker>[], consumers: readonly ConsumerFinding[]): TechFinding<Broker> | undefined {
  const consumed = countBy(consumers.map((c) => c.broker));
  const all: TechFinding<Broker>[] = [...evidence];
  for (const consumer of consumers) {
    if (consumer.broker !== 'other' && !all.some((e) => e.value === consumer.broker)) {
      all.push({ value: consumer.broker, location: consumer.location, evidence: consumer.evidence });
    }
  }
  return chooseByScore(all.filter((e) => e.value !== 'other' && e.value !== 'none'), (value, count) => (consumed.get(value) ?? 0) * 100 + count);
}

function chooseByScore<T extends string>(evidence: readonly TechFinding<T>[], score: (value: T, count: number) => number): TechFinding<T> | undefined {
  const counts = countBy(evidence.map((e) => e.value));
  let best: TechFinding<T> | undefined;
  let bestScore = -1;
  for (const [value, count] of counts) {
    const current = score(value, count);
    if (current > bestScore) {
      bestScore = current;
      // Code evidence (not a manifest line) is the more convincing location to show.
      const located = evidence.filter((e) => e.value === value);
      best = located.find((e) => !e.evidence.startsWith('dependency')) ?? located[0];
    }
  }
  return best;
}

const FRAMEWORK_LANGUAGES: Partial<Record<Framework, readonly Language[]>> = {
  nestjs: ['typescript', 'javascript'], nextjs: ['typescript', 'javascript'], fastify: ['typescript', 'javascript'],
  hono: ['typescript', 'javascript'], express: ['typescript', 'javascript'], koa: ['typescript', 'javascript'], spring: ['java', 'kotlin'], fastapi: ['python'],
  django: ['python'], flask: ['python'], gin: ['go'], 'net-http': ['go'], aspnet: ['csharp'], rails: ['ruby'], laravel: ['php'],
};

/**
 * The backend's language: the one its server framework is written in (a FastAPI service with a
 * large React frontend is a Python service), else the file-count choice.
 * @example languageOfBackend({ value: 'fastapi', … }, counts, manifests, fallback).value // 'python'
 */
export function languageOfBackend(
  framework: TechFinding<Framework> | undefined,
  fileCounts: ReadonlyMap<Language, { count: number; first: string }>,
  fallback: TechFinding<Language> | undefined,
): TechFinding<Language> | undefined {
  const candidates = framework ? FRAMEWORK_LANGUAGES[framework.value] : undefined;
  if (!candidates || (fallback && candidates.includes(fallback.value))) return fallback;
  const best = [...candidates].sort((a, b) => (fileCounts.get(b)?.count ?? 0) - (fileCounts.get(a)?.count ?? 0))[0] as Language;
  return { value: best, location: framework?.location ?? '.', evidence: `the server framework ${framework?.value ?? ''} is written in ${best}` };
}
