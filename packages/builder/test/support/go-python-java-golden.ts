/**
 * The golden fixtures of the generated Go, Python and Java code: which answers fixture and stack
 * each one is, how to generate it, and how it compares with the committed output under
 * test/golden/<fixture>/<language>/. UPDATE_GOLDEN=1 rewrites the committed output instead.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { answersSchema, type AnswersInput } from '../../src/answers.js';
import type { Artifact } from '../../src/design/model.js';
import { derivePlan } from '../../src/design/plan/plan.js';
import { goArtifacts } from '../../src/emit/go/index.js';
import { javaArtifacts } from '../../src/emit/java/index.js';
import { pythonArtifacts } from '../../src/emit/python/index.js';
import { FIXTURES } from '../fixtures.js';

export type Language = 'go' | 'python' | 'java';
export type Store = 'postgresql' | 'mysql' | 'sqlite' | 'redis';

export interface Variant {
  readonly fixture: keyof typeof FIXTURES;
  readonly store: Store;
  readonly stack: AnswersInput['stack'];
}

const database = { postgresql: 'postgresql', mysql: 'mariadb', sqlite: 'sqlite', redis: 'redis' } as const;
const stack = (language: Language, framework: string, store: Store) => ({ language, framework, database: database[store] }) as AnswersInput['stack'];

/** One fixture per store and language: the golden output, and the subjects of the conformance runs. */
export const VARIANTS: Readonly<Record<Language, readonly Variant[]>> = {
  go: [
    { fixture: 'express-postgres-stripe', store: 'postgresql', stack: stack('go', 'gin', 'postgresql') },
    { fixture: 'nestjs-mysql-adyen', store: 'mysql', stack: stack('go', 'net-http', 'mysql') },
    { fixture: 'fastify-redis-rabbitmq', store: 'sqlite', stack: stack('go', 'net-http', 'sqlite') },
    { fixture: 'go-redis', store: 'redis', stack: stack('go', 'net-http', 'redis') },
  ],
  python: [
    { fixture: 'fastapi-postgres-paypal', store: 'postgresql', stack: stack('python', 'fastapi', 'postgresql') },
    { fixture: 'nestjs-mysql-adyen', store: 'mysql', stack: stack('python', 'django', 'mysql') },
    { fixture: 'spring-postgres', store: 'sqlite', stack: stack('python', 'flask', 'sqlite') },
    { fixture: 'express-postgres-stripe', store: 'redis', stack: stack('python', 'flask', 'redis') },
  ],
  java: [
    { fixture: 'spring-postgres', store: 'postgresql', stack: stack('java', 'spring', 'postgresql') },
    { fixture: 'nestjs-mysql-adyen', store: 'mysql', stack: stack('java', 'spring', 'mysql') },
    { fixture: 'go-redis', store: 'sqlite', stack: stack('java', 'spring', 'sqlite') },
    { fixture: 'express-postgres-stripe', store: 'redis', stack: stack('java', 'spring', 'redis') },
  ],
};

const EMITTERS = { go: goArtifacts, python: pythonArtifacts, java: javaArtifacts } as const;

/**
 * The language emitter's files for one variant.
 * @example generate('go', VARIANTS.go[0]).map((a) => a.path)
 */
export function generate(language: Language, variant: Variant): Artifact[] {
  const answers = answersSchema.parse({ ...FIXTURES[variant.fixture], stack: variant.stack });
  return EMITTERS[language](derivePlan(answers));
}

export const GOLDEN_ROOT = resolve(import.meta.dirname, '../golden');

export const goldenDir = (language: Language, variant: Variant) => join(GOLDEN_ROOT, variant.fixture, language);

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The differences between the generated files and the committed ones (empty when equal), or,
 * with UPDATE_GOLDEN=1, rewrites the committed ones and returns nothing.
 * @example expect(compareGolden('go', VARIANTS.go[0])).toEqual([]);
 */
export function compareGolden(language: Language, variant: Variant): string[] {
  const dir = goldenDir(language, variant);
  const files = generate(language, variant);
  if (process.env.UPDATE_GOLDEN === '1') {
    rmSync(dir, { recursive: true, force: true });
    for (const file of files) {
      const path = join(dir, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    return [];
  }
  const committed = listFiles(dir);
  const differences: string[] = [];
  for (const file of files) {
    if (!committed.includes(file.path)) differences.push(`new file ${file.path}`);
    else if (readFileSync(join(dir, file.path), 'utf8') !== file.content) differences.push(`changed ${file.path}`);
  }
  for (const path of committed) if (!files.some((file) => file.path === path)) differences.push(`removed ${path}`);
  return differences;
}
