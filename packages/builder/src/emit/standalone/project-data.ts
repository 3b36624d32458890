/**
 * The per-project data of the standalone (Go, Python, Java) code: actions, policies, problem
 * types and the store's statements or scripts, as one JSON document. The templates are the same
 * for every project; only this data differs. Shared by the three emitters.
 */
import { ADYEN_KEY_MAX_LENGTH, ADYEN_REFERENCE_MAX_LENGTH, STRIPE_KEY_MAX_LENGTH } from '@idempotency-builder/runtime/payments';
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { expectedFingerprint } from '../../design/plan/expected-fingerprint.js';
import { BRAINTREE_ORDER_ID_MAX_LENGTH } from '../../design/plan/providers.js';
import { sampleBodies } from '../../design/plan/samples.js';
import { signatureOf } from '../typescript/core-files.js';
import { CONTRACT, contractScripts, contractStatements, type ContractStatement } from './contract-source.js';

/** How a driver writes parameters: `$1` (lib/pq), `?` (JDBC, MySQL, SQLite), `%s` (psycopg2, PyMySQL). */
export type Placeholder = 'dollar' | 'question' | 'percent';

export interface RenderedStatement {
  readonly text: string;
  /** The value name bound to each placeholder, in order. */
  readonly params: readonly string[];
}

const NAMED = /(?<![:\w])[:@]([A-Za-z][A-Za-z0-9_]*)/g;

/**
 * A contract statement in one driver's placeholder style.
 * @example renderStatement({ text: 'SELECT $1, $1', style: 'positional', names: ['a'] }, 'question') // { text: 'SELECT ?, ?', params: ['a', 'a'] }
 */
export function renderStatement(statement: ContractStatement, placeholder: Placeholder): RenderedStatement {
  const escaped = placeholder === 'percent' ? statement.text.replace(/%/g, '%%') : statement.text;
  const mark = placeholder === 'percent' ? '%s' : '?';
  if (statement.style === 'positional') {
    const names = statement.names ?? [];
    if (placeholder === 'dollar') return { text: escaped, params: names };
    const params: string[] = [];
    const text = escaped.replace(/\$(\d+)/g, (_m, n: string) => {
      params.push(names[Number(n) - 1] as string);
      return mark;
    });
    return { text, params };
  }
  const params: string[] = [];
  const text = escaped.replace(NAMED, (_m, name: string) => {
    if (placeholder === 'dollar') {
      let index = params.indexOf(name);
      if (index < 0) index = params.push(name) - 1;
      return `$${index + 1}`;
    }
    params.push(name);
    return mark;
  });
  return { text, params };
}

/** The store kinds the standalone code implements (DynamoDB and MongoDB are TypeScript-only). */
export type StandaloneStore = 'postgresql' | 'mysql' | 'sqlite' | 'redis';

/**
 * The plan's store as a standalone store kind.
 * @example standaloneStore(plan) // 'postgresql'
 */
export function standaloneStore(plan: Plan): StandaloneStore {
  const store = plan.stack.store;
  return store === 'mysql' || store === 'sqlite' || store === 'redis' ? store : 'postgresql';
}

/**
 * project.json for one language: everything that differs between projects, and nothing else.
 * @example JSON.parse(projectJson(plan, 'question')).actions.createPayment.leaseMs
 */
export function projectData(plan: Plan, placeholders: Record<'postgresql' | 'mysql' | 'sqlite', Placeholder>): Record<string, unknown> {
  const store = standaloneStore(plan);
  const target = (plan.actions.find((a) => a.action.kind === 'http') ?? plan.actions[0]) as ActionPlan;
  const { same, different } = sampleBodies(target.action);
  const actions = Object.fromEntries(
    plan.actions.map((a) => {
      const { method, path } = signatureOf(a);
      return [a.action.name, { method, path, fields: a.action.significantFields, leaseMs: a.lease.leaseMs, ttlMs: a.retention.ttlMs }];
    }),
  );
  // The runtime's partitioned PostgreSQL layout claims through a server-side function.
  const layout = store === 'postgresql' && plan.partitioned ? 'partitioned' : 'plain';
  const statements =
    store === 'redis'
      ? {}
      : Object.fromEntries(Object.entries(contractStatements(store, plan.table, layout)).map(([name, s]) => [name, renderStatement(s, placeholders[store])]));
  return {
    generatedBy: 'idempotency-builder',
    project: plan.projectName,
    store,
    table: plan.table,
    ...(store === 'postgresql' ? { layout } : {}),
    keyPrefix: CONTRACT.keyPrefix,
    keepExpiredMs: CONTRACT.keepExpiredMs,
    problemTypeBase: CONTRACT.problemTypeBase,
    problems: CONTRACT.problems,
    actions,
    paypalNamespace: plan.paypalNamespace,
    // The runtime's provider key limits (payments/provider-keys.ts), so every language fits keys alike;
    // Braintree's orderId limit is the builder's (the runtime has no Braintree derivation).
    providerKeyLimits: { stripe: STRIPE_KEY_MAX_LENGTH, adyenKey: ADYEN_KEY_MAX_LENGTH, adyenReference: ADYEN_REFERENCE_MAX_LENGTH, braintreeOrderId: BRAINTREE_ORDER_ID_MAX_LENGTH },
    statements,
    scripts: store === 'redis' ? contractScripts() : {},
    sample: { action: target.action.name, body: same, otherBody: different, fingerprint: expectedFingerprint(target, same) },
  };
}

/**
 * project.json's text: two-space JSON, one trailing newline (stable for golden files).
 * @example projectJson(plan, { postgresql: 'dollar', mysql: 'question', sqlite: 'question' })
 */
export function projectJson(plan: Plan, placeholders: Record<'postgresql' | 'mysql' | 'sqlite', Placeholder>): string {
  return `${JSON.stringify(projectData(plan, placeholders), null, 2)}\n`;
}
