/** Sections 10–12: monitoring and alerting, test scenarios, build order. */
import { metricSpecs } from '../../emit/monitoring/prometheus.js';
import { bullets, code, codeBlock, collapse, labelled, link, para, section, table, txt } from '../inline.js';
import type { Inline, Section } from '../model.js';
import { formatMs } from '../plan/durations.js';
import { sampleBodies } from '../plan/samples.js';
import { artifactAt, type DesignContext } from './context.js';

/**
 * Section 10: the seven metrics with types, series and thresholds, and the rules file.
 * @example monitoringSection({ plan, artifacts })
 */
export function monitoringSection(ctx: DesignContext): Section {
  const specs = metricSpecs(ctx.plan);
  const rules = artifactAt(ctx, 'idempotency-alerts.yml');
  return section('monitoring', '10. Monitoring and alerting', [
    para(txt`${specs.length} metrics, each alerting at a threshold derived from this service’s volume and leases; no label carries a key, fingerprint or user id.`),
    // The condition only: its meaning is the rule's description in the rules file below. Reference: folded.
    collapse(table(['Metric', 'Type', 'Series', 'Alert when'], specs.map((m) => [[code(m.name)], m.type, [code(m.series)], `${m.alert}: ${m.threshold.split(': ')[0] ?? m.threshold}`])), 'Show each metric, its series and alert threshold'),
    ...(rules ? [codeBlock('yaml', rules.content, rules.path)] : []),
  ]);
}

/**
 * Section 11: the test scenarios table and the generated test suite.
 * @example testScenariosSection({ plan, artifacts })
 */
export function testScenariosSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const target = plan.actions.find((a) => a.action.kind === 'http') ?? plan.actions[0];
  const name = target?.action.name ?? 'action';
  const route = target?.trigger ?? name;
  const { same, different } = target ? sampleBodies(target.action) : { same: {}, different: {} };
  const saga = plan.actions.find((a) => a.saga);
  const provider = plan.actions.find((a) => a.action.provider);
  const consumer = plan.actions.find((a) => a.action.kind === 'consumer' || a.action.kind === 'job');
  const lease = formatMs(target?.lease.leaseMs ?? 30_000);
  const rows: (string | Inline[])[][] = [
    ['Same key, same body, first request', txt`${route}, key K1, body ${code(JSON.stringify(same))}`, '200/201, executes once', 'Happy path works'],
    ['Same key, same body, second request', 'the same request again', 'stored response replayed (Idempotent-Replayed: true); no second execution', 'Core idempotency'],
    ['Same key, different body', txt`key K1, body ${code(JSON.stringify(different))}`, '409 fingerprint_mismatch, original not echoed; nothing executes', 'Fingerprint mismatch detection'],
    ['Concurrent requests with same key', '20 at once, key K2', 'exactly one executes; the others get 409 + Retry-After or the stored response', 'Lock correctness'],
    ['Key from different user', 'user B sends user A’s key K1', 'never A’s response (404 where keys share one namespace)', 'Scope isolation'],
    ['Request arrives after key expired', `K1 after ${formatMs(target?.retention.ttlMs ?? 86_400_000)}`, 'a new request (422 under onExpired reject)', 'Expiration logic'],
    ['Server crash mid-processing, then retry', `worker holding K3 killed; retries before and after ${lease}`, '409 during the lease; then one execution, lock_version + 1', 'Partial failure recovery'],
    saga
      ? ['Saga step 2 fails, retry the saga', `${saga.action.name}: step 2 (${saga.saga?.steps[1]?.name}) fails transiently, then a retry with the same key`, 'resumes at step 2; step 1 ran once', 'Multi-step idempotency']
      : ['Saga step 2 fails, retry the saga', 'no multi-step action yet: keep for the first one', 'resumes at step 2; step 1 not repeated', 'Multi-step idempotency'],
    ['Stale worker after a reclaim', 'A stalls past its lease, B reclaims and completes, A finishes', 'A’s completion refused (lease lost); B’s result stays', 'Fencing'],
  ];
  if (provider) rows.push(['Provider timeout, then retry', `${provider.action.name}: the provider’s answer times out; the client retries`, 'same derived provider key; the provider replays; one charge', 'Provider coordination']);
  if (consumer) rows.push(['Message redelivered', `${consumer.action.name}: one event delivered twice, once during the first run`, 'one effect; the duplicate acked after replay, the concurrent one requeued', 'Consumer idempotency']);
  const suite = ctx.artifacts.find((a) => /test|Test/.test(a.path) && a.language !== 'markdown');
  return section('test-scenarios', '11. Test scenarios', [
    para(txt`${rows.length} scenarios; above all, of 20 concurrent requests with one key exactly one executes. The suite below runs them in ${plan.stack.testFramework}.`),
    collapse(table(['Scenario', 'Input', 'Expectation', 'Verifies'], rows), `Show the ${rows.length} scenarios`),
    ...(suite ? [codeBlock(suite.language === 'markdown' ? 'text' : suite.language, suite.content, suite.path)] : []),
  ]);
}

/**
 * Section 12: the ten build steps with their deployment safety notes.
 * @example buildOrderSection({ plan, artifacts })
 */
export function buildOrderSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const first = plan.highestRisk.action.name;
  const rest = plan.actions.filter((a) => a.action.name !== first).map((a) => a.action.name);
  const sagas = plan.actions.filter((a) => a.saga).map((a) => a.action.name);
  const steps: Inline[][] = [
    labelled('1. Create the idempotency store', txt`(${link('4.2', 'store-schema')}). Safe: additive.`),
    labelled('2. Add the middleware in observe mode', txt`(\`required: false\`). Safe: keyless requests pass.`),
    labelled(`3. Protect ${first} first`, txt`the highest risk; require its key once clients send it. Rollback: optional again.`),
    labelled('4. Add fingerprinting and mismatch rejection', txt`once keys are stable; watch fingerprint_mismatches a day first.`),
    labelled('5. Add lock timeouts and orphan recovery', txt`(4.3). Safe: touches only dead workers’ records.`),
    labelled('6. Add the cleanup job', txt`Safe: deletes only expired, finished records.`),
    labelled('7. Add monitoring and alerts', txt`(section 10). Safe: read-only.`),
    labelled('8. Extend to the remaining actions', txt`${rest.length > 0 ? rest.join(', ') : '(none left)'}, one per deploy.`),
    labelled('9. Add saga tracking', txt`${sagas.length > 0 ? `for ${sagas.join(', ')}: resume from the first step not done.` : 'not needed: no multi-step action.'}`),
    labelled('10. Load-test concurrent duplicates', txt`on the real store: 50 keys × 20 duplicates = exactly 50 executions, claim p99 within ${formatMs(plan.answers.detectionLatencyMs)}.`),
  ];
  return section('build-order', '12. Build order', [para(txt`Each step deploys on its own and rolls back without data loss.`), bullets(steps)]);
}
