/**
 * The textual pre-filter in front of the Python finding scanners. On a large Django project most
 * files (models, utilities, migrations, admin) declare no route, provider call, task or schedule,
 * yet every scanner ran its regexes over them: the bulk of an inspection's CPU. A file whose text
 * holds none of the literals below gets only the facts other files depend on (shapes, imports and
 * mounts, GraphQL facts, settings: `scanPythonFacts`); every finding pattern needs one of them, so
 * such a file could not have produced a finding.
 *
 * A scanner that learns a new spelling adds its literal here. test/inspect-pattern-prefilter.test.ts
 * runs the corpus, the fixtures and one sample per pattern with and without this filter and
 * requires identical inspections, so a literal forgotten shows up there.
 */

/** Literals the case-sensitive patterns need. */
const TOKENS = new RegExp([
  // scanRoutes (python.ts): `@app.post(`/`@bp.route(…, methods=…)`, `@api_view(`, class-based views and viewsets.
  String.raw`@\w+\.(?:post|put|patch|delete|route|api_route)\(`, '@api_view', 'View', 'Mixin',
  // Routes registered by call (`add_api_route`, `add_url_rule`) and Django function views (`def v(request`, python-django-views.ts).
  'add_api_route', 'add_url_rule', String.raw`def \w+\(\s*request\b`,
  // Django Ninja (python-ninja.ts: `@router.post(` above, `api_operation`) and Litestar (python-litestar.ts: `@post(`).
  'api_operation', String.raw`@(?:litestar\.)?(?:post|put|patch|delete)\(`,
  // RULES (python.ts), one literal per rule: the Stripe SDK and StripeClient, REST calls
  // (`requests.post(… api.stripe.com …)`, PayPal paths), consumers, database and broker clients.
  String.raw`stripe\.`, String.raw`\.v1\.`, String.raw`\.post\(`,
  'basic_consume', 'aio_pika', 'KafkaConsumer', 'confluent_kafka', 'nats', 'receive_message',
  'psycopg', 'asyncpg', String.raw`_engine\(`, 'pymysql', 'aiomysql', String.raw`redis\.`, 'MongoClient', String.raw`pika\.`,
  // scanCeleryTasks (python-celery.ts): `@shared_task`, `@app.task`.
  'task',
].join('|'));

/** Literals of the patterns (or their `requires`) that ignore case: Adyen, Braintree, PayPal; beat, PeriodicTask, APScheduler, `schedule`. */
const TOKENS_ANY_CASE = /adyen|braintree|paypal|beat|periodic|schedul/i;

/**
 * True when a Python file may hold a finding, so every scanner must read it; false when only its
 * facts are needed.
 * @example pythonMayHoldFindings('class Money:\n    amount: int\n') // false
 * @example pythonMayHoldFindings('@app.post("/pay")\ndef pay(): ...') // true
 */
export function pythonMayHoldFindings(text: string): boolean {
  return TOKENS.test(text) || TOKENS_ANY_CASE.test(text);
}
