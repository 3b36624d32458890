/** Sections 10–12: monitoring and alerting, test scenarios, build order. */
import { metricSpecs } from '../../emit/monitoring/prometheus.js';
import { bullets, code, codeBlock, labelled, link, para, section, table, txt } from '../inline.js';
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
    para(txt`Seven metrics, each with a type, the series an alert reads, and a threshold derived from this service’s volume and leases.`),
    table(['Metric', 'Type', 'Series', 'Alert threshold'], specs.map((m) => [[code(m.name)], m.type, [code(m.series)], `${m.alert}: ${m.threshold}`])),
    para(txt`Labels stay low-cardinality: never a key, fingerprint or user id. Per-user key counts are enforced in the request path (429), not in Prometheus.`),
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
    ['Same key, same body, first request', txt`${route}, key K1, body ${code(JSON.stringify(same))}`, '200/201, the action executes once', 'Happy path works'],
    ['Same key, same body, second request', 'the same request again', 'same status and body replayed, Idempotent-Replayed: true; the side-effect counter stays at 1', 'Core idempotency'],
    ['Same key, different body', txt`key K1, body ${code(JSON.stringify(different))}`, '409 fingerprint_mismatch; the body does not echo the original; nothing executes', 'Fingerprint mismatch detection'],
    ['Concurrent requests with same key', '20 simultaneous requests, key K2, same body', 'exactly one executes (counter = 1); every other gets 409 with Retry-After or the stored response', 'Lock correctness'],
    ['Key from different user', 'user B sends user A’s key K1', 'never A’s response: B’s request is its own (404 where keys share one namespace)', 'Scope isolation'],
    ['Request arrives after key expired', `K1 again after ${formatMs(target?.retention.ttlMs ?? 86_400_000)}`, 'treated as a new request (onExpired new); 422 under onExpired reject', 'Expiration logic'],
    ['Server crash mid-processing, then retry', `worker claims K3 and is killed (SIGKILL); retry before and after ${lease}`, `409 while the lease runs; after it the retry executes once, lock_version = the first claim’s + 1, orphan_reclaims + 1`, 'Partial failure recovery'],
    saga
      ? ['Saga step 2 fails, retry the saga', `${saga.action.name}: step 2 (${saga.saga?.steps[1]?.name}) fails transiently, then the saga is retried with the same key`, 'resumes at step 2; step 1’s side effect happened once; step 2 ran again with the same sub-key', 'Multi-step idempotency']
      : ['Saga step 2 fails, retry the saga', 'no multi-step action today — keep this case for the first one', 'resumes at step 2; step 1 not repeated', 'Multi-step idempotency'],
    ['Stale worker after a reclaim', 'worker A stalls past its lease, B reclaims and completes, A finishes', 'A’s completion is refused (lease lost); the stored result is B’s', 'Fencing'],
  ];
  if (provider) rows.push(['Provider timeout, then retry', `${provider.action.name}: the provider processes the first call but the response times out; the client retries`, 'the retry sends the same derived provider key; the provider replays; exactly one charge', 'Provider coordination']);
  if (consumer) rows.push(['Message redelivered', `${consumer.action.name}: the same event delivered twice (and once while the first is running)`, 'one effect; the duplicate is acked after replay, the concurrent one requeued with a delay', 'Consumer idempotency']);
  const suite = ctx.artifacts.find((a) => /test|Test/.test(a.path) && a.language !== 'markdown');
  return section('test-scenarios', '11. Test scenarios', [
    table(['Scenario', 'Input', 'Expectation', 'Verifies'], rows),
    para(txt`The test suite skeleton below covers these scenarios in ${plan.stack.testFramework}, runnable without a server; the crash and concurrency cases must also run against the real store before go-live (build step 10).`),
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
    labelled('1. Create the idempotency store', txt`(${link('4.2', 'store-schema')}). Safe: additive; nothing reads it yet. Apply it in its own deploy and check the constraints exist.`),
    labelled('2. Add the middleware in observe mode', txt`keys optional (\`required: false\`): requests without a key pass unprotected, requests with one are protected. Safe: no client sees a new error; watch duplicates_blocked to size the problem before enforcing.`),
    labelled(`3. Protect ${first} first`, txt`— the highest-risk action. Make the key required there once clients send it. Rollback: switch the key back to optional.`),
    labelled('4. Add fingerprinting and mismatch rejection', txt`Safe once clients send stable keys; watch fingerprint_mismatches for a day before answering 409 everywhere.`),
    labelled('5. Add lock timeouts and orphan recovery', txt`with the leases of section 4.3. Safe: only affects records whose worker died.`),
    labelled('6. Add the cleanup job', txt`Safe: deletes only expired, finished records; run it on one instance first and watch store_size fall to the steady state.`),
    labelled('7. Add monitoring and alerts', txt`(section 10). Safe: read-only.`),
    labelled('8. Extend to the remaining actions', txt`${rest.length > 0 ? rest.join(', ') : '(none left)'}, one per deploy.`),
    labelled('9. Add saga tracking', txt`${sagas.length > 0 ? `for ${sagas.join(', ')}: create the step table first (additive), then switch the action to resume from the first step not DONE.` : 'not needed: no multi-step action.'}`),
    labelled('10. Load-test concurrent duplicates', txt`against the real store: 50 keys × 20 simultaneous duplicates must produce exactly 50 executions, and the claim p99 must stay within the detection target of ${formatMs(plan.answers.detectionLatencyMs)}.`),
  ];
  return section('build-order', '12. Build order', [
    para(txt`Each step is safe to deploy on its own and can be rolled back without data loss.`),
    bullets(steps),
  ]);
}
