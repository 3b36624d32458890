/**
 * The Java artifacts: package com.example.idempotency, copied from templates/java/ (real Java,
 * compiled by javac at release 11 and 17) plus ProjectData.java, the only per-project file
 * (project.json as a text block, or joined string literals below release 15). JDK-only core and
 * stores (JDBC; Redis through a Commands port, with a minimal RESP client), Spring Boot glue,
 * JUnit 5 tests and the shared conformance scenario runner.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { projectJson, standaloneStore } from '../standalone/project-data.js';
import { template } from '../standalone/templates.js';

export const JAVA_PACKAGE = 'com.example.idempotency';

const STORE_FILES = {
  postgresql: ['Jdbc.java', 'PostgresIdempotencyStore.java'],
  mysql: ['Jdbc.java', 'MysqlIdempotencyStore.java'],
  sqlite: ['Jdbc.java', 'SqliteIdempotencyStore.java'],
  redis: ['RedisIdempotencyStore.java', 'RespClient.java'],
} as const;

const PURPOSES: Record<string, string> = {
  'Project.java': 'Reads ProjectData: actions, policies, problem types, statements.',
  'Json.java': 'A small JSON reader (the JDK has none).',
  'Fingerprint.java': 'Fingerprint utility, identical to the TypeScript runtime’s.',
  'IdempotencyEngine.java': 'The flow: claim, run once, store, replay; heartbeat.',
  'Jdbc.java': 'What the JDBC stores share.',
  'RespClient.java': 'A minimal JDK-only Redis client (or plug in Lettuce/Jedis).',
  'IdempotentExecutor.java': 'Spring component controllers call.',
  'IdempotencyCleanupJob.java': 'Scheduled cleanup job.',
  'ProviderKeys.java': 'Deterministic provider keys.',
  'IdempotencyEngineTest.java': 'JUnit 5 suite for the section 11 scenarios (in memory).',
  'ConformanceRunner.java': 'Runs the runtime’s shared conformance scenarios against the real store.',
};

const hasProviders = (plan: Plan) => plan.answers.paymentProviders.length > 0 || plan.actions.some((a) => a.action.provider);

/**
 * A Java string literal: quotes and backslashes escaped, control characters as octal escapes,
 * other non-ASCII as \uXXXX escapes (javac decodes those before lexing, which is safe above the
 * ASCII range only), so the file compiles in any source encoding.
 */
function javaString(line: string): string {
  let escaped = '';
  for (const char of line) {
    const code = char.charCodeAt(0);
    if (char === '"' || char === '\\') escaped += `\\${char}`;
    else if (code < 0x20) escaped += `\\${code.toString(8).padStart(3, '0')}`;
    // Both UTF-16 units of a character outside the BMP.
    else if (code > 0x7e) escaped += Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
    else escaped += char;
  }
  return `"${escaped}"`;
}

/**
 * project.json as Java source: a text block from release 15 on (backslashes doubled and `"""`
 * escaped, every line at column 0 so it keeps the JSON byte for byte), below that one string
 * literal per line joined with newlines.
 * @example projectDataJava('{"a": 1}\n').includes('static final String JSON')
 */
export function projectDataJava(json: string, release = 17): string {
  const value = release >= 15
    ? `"""\n${json.replace(/\\/g, '\\\\').replace(/"""/g, '\\"""')}"""`
    : `String.join("\\n",\n${json.split('\n').map((line) => `            ${javaString(line)}`).join(',\n')})`;
  return `package ${JAVA_PACKAGE};

/** Per-project data (project.json), rendered by idempotency-builder: the only file that differs between projects. */
final class ProjectData {
    static final String JSON = ${value};

    private ProjectData() {}
}
`;
}

/**
 * Every generated Java file for the plan.
 * @example javaArtifacts(plan).map((a) => a.path)
 */
export function javaArtifacts(plan: Plan): Artifact[] {
  const store = standaloneStore(plan);
  const names = [
    'Project.java',
    'Json.java',
    'Fingerprint.java',
    'IdempotencyEngine.java',
    ...STORE_FILES[store],
    'IdempotentExecutor.java',
    'IdempotencyCleanupJob.java',
    ...(hasProviders(plan) ? ['ProviderKeys.java'] : []),
    'IdempotencyEngineTest.java',
    'ConformanceRunner.java',
  ];
  const files: Artifact[] = [
    {
      path: 'ProjectData.java',
      language: 'java',
      content: projectDataJava(projectJson(plan, { postgresql: 'question', mysql: 'question', sqlite: 'question' }), plan.stack.level.javaRelease),
      purpose: 'Per-project data: project.json as a text block.',
    },
  ];
  for (const name of names) files.push({ path: name, language: 'java', content: template('java', name), purpose: PURPOSES[name] ?? `The ${plan.stack.storeName} store.` });
  return files;
}
