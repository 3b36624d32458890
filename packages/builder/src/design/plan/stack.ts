/**
 * The stack the code is written for. Unsupported languages, frameworks and databases map to the
 * closest supported one, and the document says so; agnostic mode uses the PostgreSQL reference.
 */
import type { Answers } from '../../answers.js';
import { planLevel, type LevelPlan } from './language-level.js';

export type CodeLang = 'typescript' | 'python' | 'go' | 'java';
export type CodeFramework =
  | 'express'
  | 'fastify'
  | 'nestjs'
  | 'hono'
  | 'koa'
  | 'fetch'
  | 'fastapi'
  | 'flask'
  | 'django'
  | 'net-http'
  | 'gin'
  | 'spring';
export type StoreKind = 'postgresql' | 'mysql' | 'sqlite' | 'redis' | 'dynamodb' | 'mongodb';
export type TestFramework = 'vitest' | 'jest' | 'pytest' | 'go-test' | 'junit5';

export interface ResolvedStack {
  readonly language: CodeLang;
  readonly framework: CodeFramework;
  readonly store: StoreKind;
  /** `mariadb` when the user runs MariaDB; the DDL is shared with MySQL. */
  readonly storeFlavor: 'postgresql' | 'mysql' | 'mariadb' | 'sqlite' | 'redis' | 'dynamodb' | 'mongodb';
  readonly testFramework: TestFramework;
  readonly broker: Answers['stack']['broker'];
  /** The project's language level and what it changes in the generated code. */
  readonly level: LevelPlan;
  /** Sentences explaining every substitution made; empty when the stack is used as-is. */
  readonly notes: readonly string[];
  /** Display names. */
  readonly languageName: string;
  readonly frameworkName: string;
  readonly storeName: string;
}

const LANGUAGE_NAMES: Record<CodeLang, string> = { typescript: 'TypeScript', python: 'Python', go: 'Go', java: 'Java' };
const FRAMEWORK_NAMES: Record<CodeFramework, string> = {
  express: 'Express',
  fastify: 'Fastify',
  nestjs: 'NestJS',
  hono: 'Hono',
  koa: 'Koa',
  fetch: 'Fetch API (Request/Response)',
  fastapi: 'FastAPI',
  flask: 'Flask',
  django: 'Django',
  'net-http': 'net/http',
  gin: 'Gin',
  spring: 'Spring Boot',
};
const STORE_NAMES: Record<ResolvedStack['storeFlavor'], string> = {
  postgresql: 'PostgreSQL',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  sqlite: 'SQLite',
  redis: 'Redis',
  dynamodb: 'DynamoDB',
  mongodb: 'MongoDB',
};

function resolveLanguage(language: Answers['stack']['language'], notes: string[]): CodeLang {
  switch (language) {
    case 'typescript':
    case 'python':
    case 'go':
    case 'java':
      return language;
    case 'javascript':
      notes.push('The project is JavaScript; the generated code is TypeScript, which the runtime types best. Compile it with `tsc` (or keep it as TypeScript under a `tsx`/`ts-node` loader) before importing it from JavaScript.');
      return 'typescript';
    case 'kotlin':
      notes.push('Kotlin has no generator of its own; the code is Java, which Kotlin calls directly (same JVM, same Spring beans).');
      return 'java';
    case 'csharp':
      notes.push('C# has no generator of its own; the closest supported language is Java (a statically typed, middleware-based web stack). Port the Java classes to ASP.NET Core middleware; the SQL is unchanged.');
      return 'java';
    case 'ruby':
    case 'php':
      notes.push(`${language === 'ruby' ? 'Ruby' : 'PHP'} has no generator of its own; the code is Python (Flask), the closest supported dynamic language with a decorator-style request hook. The SQL, the key rules and the tests carry over unchanged.`);
      return 'python';
    default:
      notes.push('The language is not one the generator supports; the code is TypeScript against the idempotency-builder runtime and must be ported.');
      return 'typescript';
  }
}

function resolveFramework(language: CodeLang, framework: Answers['stack']['framework'], notes: string[]): CodeFramework {
  const fits: Record<CodeLang, readonly CodeFramework[]> = {
    typescript: ['express', 'fastify', 'nestjs', 'hono', 'koa'],
    python: ['fastapi', 'flask', 'django'],
    go: ['net-http', 'gin'],
    java: ['spring'],
  };
  if ((fits[language] as readonly string[]).includes(framework)) return framework as CodeFramework;
  const fallback: Record<CodeLang, CodeFramework> = { typescript: 'fetch', python: 'flask', go: 'net-http', java: 'spring' };
  const chosen = language === 'python' && (framework === 'none' || framework === 'other') ? 'fastapi' : fallback[language];
  if (framework === 'nextjs') {
    notes.push('Next.js app-router route handlers take a `Request` and return a `Response`, so their wrapper uses the Fetch API types directly; pages-router API routes (`pages/api`, Node\'s `(req, res)`) get their own wrapper, next-pages.ts.');
  } else if (framework !== 'none' && framework !== 'other') {
    notes.push(`${framework} is not a generator target; the middleware is written for ${FRAMEWORK_NAMES[chosen]}, the closest fit in ${LANGUAGE_NAMES[language]}.`);
  } else if (framework === 'other') {
    // A framework the inspector recognised but no generator serves (Litestar, Echo): never implied to run on it.
    notes.push(`The web framework is not one the generator writes code for; the middleware is written for ${FRAMEWORK_NAMES[chosen]} and must be ported to your framework before it protects anything.`);
  } else {
    notes.push(`No web framework was named; the middleware is written for ${FRAMEWORK_NAMES[chosen]}.`);
  }
  return chosen;
}

function resolveStore(database: Answers['stack']['database'], agnostic: boolean, notes: string[]): ResolvedStack['storeFlavor'] {
  if (agnostic) return 'postgresql';
  if (database === 'unknown') {
    // The stack is known but no database was found: the runtime's embedded store runs as is.
    notes.push('No database was found in the code or its manifests; the design uses the runtime\'s embedded SQLite store, which needs no server. Switch to the store of your database when the service gets one: the logical model (key, scope, fingerprint, status, lock, response, expiry) is the same.');
    return 'sqlite';
  }
  if (database === 'other') {
    notes.push('The database is unknown or unsupported; the design uses the PostgreSQL reference schema. Redesign the store from the logical model (key, scope, fingerprint, status, lock, response, expiry) if you run something else.');
    return 'postgresql';
  }
  return database;
}

function resolveTests(language: CodeLang, requested: string | undefined): TestFramework {
  if (language === 'python') return 'pytest';
  if (language === 'go') return 'go-test';
  if (language === 'java') return 'junit5';
  return requested === 'jest' ? 'jest' : 'vitest';
}

/**
 * Resolves the stack the generated code targets.
 * @example resolveStack(answers).framework // 'express'
 */
export function resolveStack(answers: Answers): ResolvedStack {
  const notes: string[] = [];
  const language = answers.agnostic ? 'typescript' : resolveLanguage(answers.stack.language, notes);
  const framework = answers.agnostic ? 'fetch' : resolveFramework(language, answers.stack.framework, notes);
  const storeFlavor = resolveStore(answers.stack.database, answers.agnostic, notes);
  const store: StoreKind = storeFlavor === 'mariadb' ? 'mysql' : storeFlavor;
  if (answers.agnostic) {
    notes.push('The stack is unknown, so this design is technology-agnostic: it uses the PostgreSQL reference schema, and the sample code (TypeScript on the Fetch API) shows the flow but needs adapting to your language, framework and database.');
  }
  // A level read for another language (an answers file that changed the language) does not apply.
  const level = planLevel(answers.agnostic ? undefined : answers.stack.level, language);
  notes.push(...level.notes);
  return {
    language,
    framework,
    level,
    store,
    storeFlavor,
    testFramework: resolveTests(language, answers.stack.testFramework),
    broker: answers.stack.broker,
    notes,
    languageName: LANGUAGE_NAMES[language],
    frameworkName: FRAMEWORK_NAMES[framework],
    storeName: STORE_NAMES[storeFlavor],
  };
}
