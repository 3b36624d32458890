/**
 * The Python artifacts: a standalone package (standard library plus your driver) copied from
 * templates/python/ (real Python, checked by py_compile and pyflakes) plus project.json, the only
 * per-project file: engine, store, web integration, provider keys, cleanup, tests, scenario runner.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { projectJson, standaloneStore } from '../standalone/project-data.js';
import { template } from '../standalone/templates.js';

const STORE_FILES = {
  postgresql: ['dbapi.py', 'store_postgres.py'],
  mysql: ['dbapi.py', 'store_mysql.py'],
  sqlite: ['dbapi.py', 'store_sqlite.py'],
  redis: ['store_redis.py'],
} as const;

const INTEGRATIONS: Record<string, string> = { flask: 'flask_integration.py', django: 'django_integration.py' };

const PURPOSES: Record<string, string> = {
  '__init__.py': 'Package marker.',
  'project.py': 'Loads project.json: actions, policies, problem types, statements.',
  'fingerprint.py': 'Fingerprint utility, identical to the TypeScript runtime’s.',
  'engine.py': 'The flow: claim, run once, store, replay; heartbeat; consumers.',
  'dbapi.py': 'What the DB-API stores share.',
  'cleanup.py': 'Cleanup job.',
  'provider_keys.py': 'Deterministic provider keys.',
  'test_idempotency.py': 'Test suite for the section 11 scenarios (in memory; pytest or plain python).',
  'conformance.py': 'Runs the runtime’s shared conformance scenarios against the real store.',
};

const hasProviders = (plan: Plan) => plan.answers.paymentProviders.length > 0 || plan.actions.some((a) => a.action.provider);

/**
 * Every generated Python file for the plan.
 * @example pythonArtifacts(plan).map((a) => a.path)
 */
export function pythonArtifacts(plan: Plan): Artifact[] {
  const store = standaloneStore(plan);
  const integration = INTEGRATIONS[plan.stack.framework] ?? 'fastapi_integration.py';
  const names = [
    '__init__.py',
    'project.py',
    'fingerprint.py',
    'engine.py',
    ...STORE_FILES[store],
    integration,
    'cleanup.py',
    ...(hasProviders(plan) ? ['provider_keys.py'] : []),
    'test_idempotency.py',
    'conformance.py',
  ];
  const files: Artifact[] = names.map((name) => ({
    path: name,
    language: 'python',
    content: template('python', name),
    purpose: PURPOSES[name] ?? (name === integration ? `Middleware for ${plan.stack.frameworkName}.` : `The ${plan.stack.storeName} store.`),
  }));
  files.push({
    path: 'project.json',
    language: 'json',
    content: projectJson(plan, { postgresql: 'percent', mysql: 'percent', sqlite: 'question' }),
    purpose: 'Per-project data (read by project.py).',
  });
  return files;
}
