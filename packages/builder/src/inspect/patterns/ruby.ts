/**
 * Ruby / Rails by reliable patterns: `config/routes.rb` with full paths and controller actions
 * (ruby-routes.ts, linked to the actions' spans and `params.require(:x).permit(...)` fields once
 * every file is known in ruby-controllers.ts), Stripe/Adyen calls, `whenever` schedules; Sidekiq/ActiveJob/Sneakers/Karafka
 * jobs and sidekiq-cron in Ruby (ruby-jobs.ts).
 */
import { formatLocation } from '../location.js';
import { emptyFindings, type EndpointFinding, type MutatingMethod, type ScanResult } from '../types.js';
import { maskCode } from './code-mask.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { scanRubyJobs, scanRubySchedules } from './ruby-jobs.js';
import { railsRoutes } from './ruby-routes.js';
import { matchesWithLines } from './line-patterns.js';

const STRIPE_KEY = { key: /idempotency_key:/, fix: { argument: '{ idempotency_key: {{KEY}} }' } } as const;

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /\bStripe::(PaymentIntent|Charge|Refund|Payout|Transfer|Checkout::Session|Subscription)\.(create|confirm|capture)\b/, ...STRIPE_KEY },
  // stripe-ruby 13+: `client = Stripe::StripeClient.new(key)`, then `client.v1.payment_intents.create(params, { idempotency_key: k })`.
  { kind: 'payment', value: 'stripe', pattern: /(?:@{0,2}\w+(?:\.\w+)*)?\.v1\.(payment_intents|charges|refunds|payouts|transfers|checkout\.sessions|subscriptions)\.(create|confirm|capture)\b/, requires: /stripe/i, ...STRIPE_KEY },
  { kind: 'payment', value: 'paypal', pattern: /\b(?:orders_controller|orders)\.(create_order|capture_order|authorize_order)\b/, key: /paypal_request_id|PayPal-Request-Id/i, requires: /paypal/i },
  // Braintree: `api_request_key` is its At-Most-Once key (braintree 4.36+).
  { kind: 'payment', value: 'braintree', pattern: /\b(?:Braintree::Transaction|\w+\.transaction)\.(sale|refund|submit_for_settlement|submit_for_partial_settlement|credit)!?\(/, key: /api_request_key/, requires: /Braintree/ },
  { kind: 'payment', value: 'adyen', pattern: /\.checkout\.(payments_api\.)?payments\b|\.modifications_api\.\w+|\.donations_api\.donations\b/, key: /idempotency_key|Idempotency-Key/, requires: /Adyen::Client/ },
  { kind: 'scheduler', value: 'whenever', pattern: /^[ \t]*every\s+([^\s,]+(?:\.\w+)?)/m, schedule: 1, requires: /runner|rake|command/ },
  { kind: 'database', value: 'postgresql', pattern: /adapter:\s*postgresql/ },
  { kind: 'database', value: 'mysql', pattern: /adapter:\s*mysql2/ },
];

/** Sinatra: `post '/x' do … end`, the block up to the `end` at the route's indentation. */
function sinatraRoutes(relPath: string, text: string): EndpointFinding[] {
  const lines = text.split('\n');
  return matchesWithLines(text, /^([ \t]*)(post|put|patch|delete)\s+['"]([^'"]+)['"]\s+do\b/gm).map(({ match, line }) => {
    const indent = match[1] ?? '';
    let end = line;
    while (end < lines.length && lines[end] !== `${indent}end`) end += 1;
    const body = lines.slice(line, end).join('\n');
    const fields = [...new Set([...body.matchAll(/(?:data|params|body|payload)\[['":](\w+)['"]?\]/g)].map((m) => m[1] ?? ''))];
    const route = match[3] ?? '/';
    return {
      method: (match[2] ?? '').toUpperCase() as MutatingMethod, route, framework: 'other' as const, location: formatLocation(relPath, line),
      bodyFields: fields, webhook: /webhook|\bipn\b/i.test(route) || /Webhook\.construct_event/.test(body), span: { start: line, end: end + 1 },
    };
  });
}

/** Strong-parameter permits: `params.require(:payment).permit(:amount, :currency)` → shape `payment`. */
function permittedShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match } of matchesWithLines(text, /params\.require\(:(\w+)\)\.permit\(([^)]*)\)/g)) {
    const fields = [...(match[2] ?? '').matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  return shapes;
}

/**
 * Scans one Ruby file (routes only from `config/routes.rb`).
 * @example scanRuby('config/routes.rb', 'scope :api do\n  resources :payments, only: :create\nend').findings.endpoints // POST /api/payments
 */
export function scanRuby(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  const shapes = permittedShapes(text);
  if (/(^|\/)(spec|test)\//.test(relPath)) return { findings, shapes };
  if (/(^|\/)config\/routes\.rb$/.test(relPath)) findings.endpoints.push(...railsRoutes(relPath, text));
  else if (/require ['"]sinatra|Sinatra::Base/.test(text)) findings.endpoints.push(...sinatraRoutes(relPath, text));
  applyEffectRules(relPath, text, RULES, findings);
  // A job class or cron entry commented out is none.
  const code = maskCode(text, 'ruby');
  findings.consumers.push(...scanRubyJobs(relPath, code));
  findings.schedulers.push(...scanRubySchedules(relPath, code));
  return { findings, shapes };
}
