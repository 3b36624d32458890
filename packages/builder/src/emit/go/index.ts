/**
 * The Go artifacts: package idempotency, copied from templates/go/ (real Go, checked by gofmt, go vet
 * and go test) plus project.json, the only per-project file. Standard library only; the driver is
 * the user's (database/sql, or a one-function Eval port for Redis); Gin glue behind a build tag.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { projectJson, standaloneStore } from '../standalone/project-data.js';
import { template } from '../standalone/templates.js';

/** The driver module each store's conformance test imports (named in go.mod). */
const DRIVERS = {
  postgresql: { module: 'github.com/lib/pq', version: 'v1.10.9' },
  mysql: { module: 'github.com/go-sql-driver/mysql', version: 'v1.8.1' },
  sqlite: { module: 'github.com/mattn/go-sqlite3', version: 'v1.14.22' },
  redis: { module: 'github.com/gomodule/redigo', version: 'v1.9.2' },
} as const;

const STORE_FILES = {
  postgresql: ['sql_common.go', 'store_postgres.go'],
  mysql: ['sql_common.go', 'store_mysql.go'],
  sqlite: ['sql_common.go', 'store_sqlite.go'],
  redis: ['store_redis.go'],
} as const;

const PURPOSES: Record<string, string> = {
  'project.go': 'Loads project.json (embedded): actions, policies, problem types, statements.',
  'fingerprint.go': 'Fingerprint utility, identical to the TypeScript runtime’s.',
  'engine.go': 'The flow: claim, run once, store, replay; heartbeat; consumers.',
  'sql_common.go': 'What the database/sql stores share.',
  'middleware.go': 'net/http middleware.',
  'gin.go': 'Gin handler wrapper (build tag gin).',
  'provider_keys.go': 'Deterministic provider keys.',
  'cleanup.go': 'Cleanup job.',
  'idempotency_test.go': 'go test suite for the section 11 scenarios (in memory).',
  'conformance_test.go': 'Runs the runtime’s shared conformance scenarios against the real store.',
};

const hasProviders = (plan: Plan) => plan.answers.paymentProviders.length > 0 || plan.actions.some((a) => a.action.provider);

/**
 * Every generated Go file for the plan.
 * @example goArtifacts(plan).map((a) => a.path)
 */
export function goArtifacts(plan: Plan): Artifact[] {
  const store = standaloneStore(plan);
  const names = [
    'project.go',
    'fingerprint.go',
    'engine.go',
    ...STORE_FILES[store],
    'middleware.go',
    ...(plan.stack.framework === 'gin' ? ['gin.go'] : []),
    ...(hasProviders(plan) ? ['provider_keys.go'] : []),
    'cleanup.go',
    'idempotency_test.go',
    'conformance_test.go',
    `conformance_${store}_test.go`,
  ];
  const files: Artifact[] = names.map((name) => ({
    path: name,
    language: 'go',
    content: template('go', name),
    purpose: PURPOSES[name] ?? `The ${plan.stack.storeName} store.`,
  }));
  const driver = DRIVERS[store];
  files.push(
    { path: 'project.json', language: 'json', content: projectJson(plan, { postgresql: 'dollar', mysql: 'question', sqlite: 'question' }), purpose: 'Per-project data (embedded by project.go).' },
    {
      path: 'go.mod',
      language: 'text',
      // The project's module path and go version (go.mod), so the import path is the same whether
      // the package stays a nested module or moves into the project's module.
      content: `module ${plan.stack.level.goModule ?? goModule(plan.projectName)}/idempotency\n\ngo ${plan.stack.level.goVersion}\n\n// The driver the conformance test opens; the package itself needs only the standard library.\nrequire ${driver.module} ${driver.version}\n`,
      purpose: 'Go module (run go mod tidy once).',
    },
  );
  return files;
}

/** A module path from the project name: lower-case letters, digits and dashes. */
function goModule(name: string): string {
  return `example.com/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'service'}`;
}
