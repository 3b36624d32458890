/**
 * Questions 3–7 — retry sources, payments, concurrency, retention, detection latency. Each is
 * taken from the answers file or the code when they answer it, otherwise asked once (pre-filled
 * with what the code suggests), and when it cannot be asked or the user is unsure, answered by a
 * stated assumption. None of these is ever asked twice.
 */
import type { Action, Answers } from '../answers.js';
import type { PartialAnswers } from '../answers-file.js';
import { DAY, HOUR, formatMs } from '../design/plan/durations.js';
import {
  CONCURRENCY_ASSUMPTION, DEFAULT_DETECTION_LATENCY_MS, DETECTION_LATENCY_ASSUMPTION, RETRY_SOURCES_ASSUMPTION,
  inferRetrySources, recommendedRetention,
} from './defaults.js';
import { parseDuration } from './duration.js';
import type { Choice, PromptPort } from './prompt-port.js';
import type { Proposals, Provenance } from './propose.js';
import type { QuestionNumbers } from './question-numbers.js';

type Context = Pick<Answers, 'retrySources' | 'paymentProviders' | 'concurrency' | 'retentionMs' | 'detectionLatencyMs'>;
type RetrySource = Answers['retrySources'][number];
type Provider = Answers['paymentProviders'][number];

export interface ContextResult {
  readonly context: Context;
  readonly provenance: Record<string, Provenance>;
}

const RETRY_LABELS: Record<RetrySource, string> = {
  'client-retry': 'Client retries (timeouts, 5xx)', 'queue-redelivery': 'Queue redelivery (at-least-once)',
  'webhook-resend': 'Webhook resends by the provider', 'cron-overlap': 'Overlapping cron / job runs',
  'double-click': 'User double-click / form resubmit', 'load-balancer-replay': 'Load-balancer or proxy replay',
};

const PROVIDER_CHOICES: Choice<Provider>[] = [
  { value: 'stripe', label: 'Stripe' }, { value: 'adyen', label: 'Adyen' }, { value: 'paypal', label: 'PayPal' },
  { value: 'braintree', label: 'Braintree' }, { value: 'bank-transfer', label: 'Bank transfer' },
];

const UNSURE = '?';
const user: Provenance = { source: 'user' };
const assumption = (detail: string): Provenance => ({ source: 'assumption', detail });

function fromFile(fileName: string): Provenance {
  return { source: 'file', detail: fileName };
}

/**
 * The sentence saying that a stated retention is shorter than the deduplication window of a
 * provider the actions call (the plan keeps those actions' keys for the window), and why;
 * undefined when it is not.
 * @example retentionBelowProviderWindow(2 * HOUR, ['stripe']) // '2 h is shorter than Stripe's …'
 */
export function retentionBelowProviderWindow(retentionMs: number, providers: readonly Provider[]): string | undefined {
  if (providers.length === 0) return undefined;
  const floor = recommendedRetention(providers);
  if (floor.ms <= retentionMs) return undefined;
  return `${formatMs(retentionMs)} is shorter than the design allows for payment actions: their keys are kept ${formatMs(floor.ms)}, ${floor.reason} (a retry after ${formatMs(retentionMs)} would otherwise run as a new request while the provider still answers it as a duplicate); other actions keep ${formatMs(retentionMs)}`;
}

/**
 * Resolves questions 3–7 in the spec's order.
 * @example const { context } = await resolveContext({ actions, proposals, file: {}, fileName: '', prompts: undefined });
 */
export async function resolveContext({ actions, proposals, file, fileName, prompts, numbers }: {
  actions: readonly Action[]; proposals: Proposals; file: PartialAnswers; fileName: string; prompts: PromptPort | undefined; numbers?: QuestionNumbers;
}): Promise<ContextResult> {
  const provenance: Record<string, Provenance> = {};
  const label = (n: number): string => numbers?.label(n) ?? `Question ${n}`;

  // Q3 — the code only suggests these (it cannot know about double-clicks or proxies), so ask.
  const inferred = inferRetrySources(actions);
  let retrySources: RetrySource[];
  if (file.retrySources) {
    retrySources = file.retrySources;
    provenance.retrySources = fromFile(fileName);
    numbers?.answered(3, 'what repeats the actions', provenance.retrySources);
  } else if (prompts) {
    const chosen = await prompts.multiselect({
      id: 'retrySources',
      message: `${label(3)} — what can repeat these actions? Pre-selected from the code: ${inferred.map((s) => RETRY_LABELS[s]).join(', ')}. (Submit empty if unsure.)`,
      options: (Object.keys(RETRY_LABELS) as RetrySource[]).map((value) => ({ value, label: RETRY_LABELS[value] })),
      initialValues: inferred,
      required: false,
    });
    retrySources = chosen.length > 0 ? chosen : inferred;
    // An empty submission is the "unsure" the message offers: say that it was the user's choice.
    provenance.retrySources = chosen.length > 0 ? user : assumption(`you left question 3 empty (unsure), so the sources the code suggests are kept — ${RETRY_SOURCES_ASSUMPTION}`);
  } else {
    retrySources = inferred;
    provenance.retrySources = assumption(RETRY_SOURCES_ASSUMPTION);
  }

  // Q4 — an SDK in the code answers it; its absence does not prove there are no payments.
  let paymentProviders: Provider[];
  if (file.paymentProviders) {
    paymentProviders = file.paymentProviders;
    provenance.paymentProviders = fromFile(fileName);
    numbers?.answered(4, 'payments', provenance.paymentProviders);
  } else if (proposals.paymentProviders) {
    paymentProviders = proposals.paymentProviders.value;
    provenance.paymentProviders = proposals.paymentProviders.provenance;
    numbers?.answered(4, `payments: ${paymentProviders.join(', ') || 'none'}`, provenance.paymentProviders);
  } else if (prompts) {
    paymentProviders = await prompts.multiselect({
      id: 'paymentProviders',
      message: `${label(4)} — are payments involved? No Stripe, Adyen, PayPal or Braintree SDK was found in the code. Select the providers (none selected = no payments).`,
      options: PROVIDER_CHOICES,
      required: false,
    });
    provenance.paymentProviders = user;
  } else {
    paymentProviders = [];
    provenance.paymentProviders = assumption('no Stripe, Adyen, PayPal or Braintree SDK was found in the code, so no payment provider is assumed; name one in an answers file if payments go through a plain HTTP API or a bank');
  }
  for (const action of actions) if (action.provider && !paymentProviders.includes(action.provider)) paymentProviders.push(action.provider);

  // Q5
  let concurrency: Answers['concurrency'];
  if (file.concurrency) {
    concurrency = file.concurrency;
    provenance.concurrency = fromFile(fileName);
    numbers?.answered(5, 'concurrency', provenance.concurrency);
  } else if (proposals.concurrency) {
    concurrency = proposals.concurrency.value;
    provenance.concurrency = proposals.concurrency.provenance;
    numbers?.answered(5, `concurrency: ${concurrency}`, provenance.concurrency);
  } else if (prompts) {
    const answer = await prompts.select<Answers['concurrency'] | typeof UNSURE>({
      id: 'concurrency',
      message: `${label(5)} — how many instances process these actions at once?`,
      options: [
        { value: 'single-server', label: 'A single server / process' }, { value: 'multi-instance', label: 'Several instances (one region)' },
        { value: 'globally-distributed', label: 'Globally distributed (several regions)' }, { value: UNSURE, label: "I don't know", hint: 'assume several instances' },
      ],
      initialValue: 'multi-instance',
    });
    concurrency = answer === UNSURE ? 'multi-instance' : answer;
    provenance.concurrency = answer === UNSURE ? assumption(CONCURRENCY_ASSUMPTION) : user;
  } else {
    concurrency = 'multi-instance';
    provenance.concurrency = assumption(CONCURRENCY_ASSUMPTION);
  }

  // Q6
  const recommended = recommendedRetention(paymentProviders);
  let retentionMs: number;
  if (file.retentionMs) {
    retentionMs = file.retentionMs;
    provenance.retentionMs = fromFile(fileName);
    numbers?.answered(6, 'retention', provenance.retentionMs);
  } else if (prompts) {
    const presets = [...new Set([24 * HOUR, 48 * HOUR, 7 * DAY, 31 * DAY, recommended.ms])].sort((a, b) => a - b);
    const options: Choice<string>[] = presets.map((ms) => ({ value: String(ms), label: formatMs(ms), ...(ms === recommended.ms ? { hint: 'recommended' } : {}) }));
    options.push({ value: 'custom', label: 'Another duration…' }, { value: UNSURE, label: "I don't know", hint: `use ${formatMs(recommended.ms)}` });
    const answer = await prompts.select({
      id: 'retention',
      message: `${label(6)} — how long should a completed request be remembered (retries recognised)? Recommended: ${formatMs(recommended.ms)}, ${recommended.reason}.`,
      options,
      initialValue: String(recommended.ms),
    });
    if (answer === 'custom') {
      const text = await prompts.text({
        id: 'retention.custom',
        message: 'Retention, e.g. 36h, 14d:',
        placeholder: formatMs(recommended.ms).replace(' ', ''),
        validate: (value) => (parseDuration(value) ? undefined : 'Write a duration such as 36h, 14d or 90m'),
      });
      retentionMs = parseDuration(text) ?? recommended.ms;
    } else {
      retentionMs = answer === UNSURE ? recommended.ms : Number(answer);
    }
    provenance.retentionMs = answer === UNSURE ? assumption(`${formatMs(recommended.ms)}: ${recommended.reason}`) : user;
  } else {
    retentionMs = recommended.ms;
    provenance.retentionMs = assumption(`${formatMs(recommended.ms)}: ${recommended.reason}`);
  }
  // The providers the plan raises retention for: actions that call one (webhooks have their own bound).
  const called = [...new Set(actions.flatMap((action) => (action.provider && action.kind !== 'webhook' ? [action.provider] : [])))];
  const raised = retentionBelowProviderWindow(retentionMs, called);
  if (raised && provenance.retentionMs.source !== 'assumption') {
    // Never raised without a word: the plan keeps each provider action's keys for the provider's
    // window (a retry the provider still deduplicates must also be recognised here).
    provenance.retentionMs = { ...provenance.retentionMs, detail: [provenance.retentionMs.detail, raised].filter(Boolean).join('; ') };
    prompts?.note(raised, 'Retention');
  }

  // Q7
  let detectionLatencyMs: number;
  if (file.detectionLatencyMs) {
    detectionLatencyMs = file.detectionLatencyMs;
    provenance.detectionLatencyMs = fromFile(fileName);
    numbers?.answered(7, 'detection latency', provenance.detectionLatencyMs);
  } else if (prompts) {
    const answer = await prompts.select({
      id: 'detectionLatency',
      message: `${label(7)} — how quickly must a duplicate be rejected (p99)?`,
      options: [
        { value: '10', label: '10 ms' }, { value: '50', label: '50 ms' }, { value: '100', label: '100 ms', hint: 'typical' },
        { value: '500', label: '500 ms' }, { value: '1000', label: '1 s' }, { value: UNSURE, label: "I don't know", hint: 'assume 100 ms' },
      ],
      initialValue: String(DEFAULT_DETECTION_LATENCY_MS),
    });
    detectionLatencyMs = answer === UNSURE ? DEFAULT_DETECTION_LATENCY_MS : Number(answer);
    provenance.detectionLatencyMs = answer === UNSURE ? assumption(DETECTION_LATENCY_ASSUMPTION) : user;
  } else {
    detectionLatencyMs = DEFAULT_DETECTION_LATENCY_MS;
    provenance.detectionLatencyMs = assumption(DETECTION_LATENCY_ASSUMPTION);
  }

  return { context: { retrySources, paymentProviders, concurrency, retentionMs, detectionLatencyMs }, provenance };
}
