/**
 * Python by reliable patterns: FastAPI/Flask route decorators (with APIRouter/Blueprint prefixes),
 * Django REST `@api_view` and class-based view methods, Pydantic models as body shapes, payment SDK
 * calls, consumers (pika, aio-pika, Kafka, NATS, SQS, Celery), APScheduler/schedule jobs, clients.
 */
import { formatLocation } from '../location.js';
import { emptyFindings, type EndpointFinding, type Framework, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { indentBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';

const METHOD: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };
const VIEWSET: Record<string, MutatingMethod> = { create: 'POST', update: 'PUT', partial_update: 'PATCH', destroy: 'DELETE' };

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /\bstripe\.(PaymentIntent|Charge|Refund|Payout|Transfer|Subscription|Customer|checkout\.Session)\.(create|confirm|capture)\(/, key: /idempotency_key\s*=/ },
  { kind: 'payment', value: 'stripe', pattern: /\.v1\.(payment_intents|charges|refunds|payouts|transfers|checkout\.sessions)\.(create|confirm|capture)\(/, key: /idempotency_key/ },
  { kind: 'payment', value: 'adyen', pattern: /\.(payments_api|modifications_api)\.(payments|refund_captured_payment|capture_authorised_payment)\(|adyen\.checkout\.payments\(/, key: /idempotency_key|Idempotency-Key/, requires: /import Adyen|from Adyen|import adyen/ },
  { kind: 'payment', value: 'paypal', pattern: /\.(orders_controller|orders)\.(create_order|capture_order|authorize_order)\(|\bOrders(Create|Capture)Request\(|paypalrestsdk\.Payment\(/, key: /pay_pal_request_id|paypal_request_id|PayPal-Request-Id/, requires: /paypal/i },
  { kind: 'consumer', value: 'rabbitmq', pattern: /\.basic_consume\(\s*(?:queue\s*=\s*)?(?:["']([\w.-]+))?/, channel: 1 },
  { kind: 'consumer', value: 'rabbitmq', pattern: /\bawait\s+\w+\.consume\(|\basync with \w+\.iterator\(/, requires: /aio_pika/ },
  { kind: 'consumer', value: 'kafka', pattern: /\b(?:AIO)?KafkaConsumer\(\s*["']([^"']+)/, channel: 1 },
  { kind: 'consumer', value: 'kafka', pattern: /\.subscribe\(\s*\[\s*["']([^"']+)/, requires: /confluent_kafka/, channel: 1 },
  { kind: 'consumer', value: 'nats', pattern: /\.subscribe\(\s*["']([^"']+)/, requires: /import nats|from nats/, channel: 1 },
  { kind: 'consumer', value: 'sqs', pattern: /\.receive_message\(\s*QueueUrl\s*=\s*["']?([^"',)]*)/, channel: 1 },
  { kind: 'consumer', value: 'other', pattern: /^[ \t]*@(?:shared_task|\w+\.task)\b/m },
  { kind: 'scheduler', value: 'apscheduler', pattern: /\.add_job\(\s*([\w.]+)[^)\n]*?["'](cron|interval|date)["']/, handler: 1, schedule: 2, requires: /apscheduler/ },
  { kind: 'scheduler', value: 'apscheduler', pattern: /@\w+\.scheduled_job\(\s*["'](\w+)["']/, schedule: 1 },
  { kind: 'scheduler', value: 'schedule', pattern: /\bschedule\.every\([^)]*\)\.[\w.]+/, requires: /import schedule/ },
  { kind: 'scheduler', value: 'celery beat', pattern: /beat_schedule\s*=/ },
  { kind: 'database', value: 'postgresql', pattern: /\b(psycopg2?\.connect|asyncpg\.(connect|create_pool)|create(_async)?_engine\(\s*["']postgres)/ },
  { kind: 'database', value: 'mysql', pattern: /\b(pymysql\.connect|aiomysql\.|create(_async)?_engine\(\s*["']mysql)/ },
  { kind: 'database', value: 'redis', pattern: /\b(redis|aioredis)\.(Redis|StrictRedis|from_url)\(/ },
  { kind: 'database', value: 'mongodb', pattern: /\bMongoClient\(/ },
  { kind: 'broker', value: 'rabbitmq', pattern: /\b(pika\.BlockingConnection|aio_pika\.connect(_robust)?)\(/ },
];

/** Receiver variables bound to an app or router, with the route prefix each adds. */
function routers(text: string): Map<string, { framework: Framework; prefix: string }> {
  const out = new Map<string, { framework: Framework; prefix: string }>();
  for (const { match } of matchesWithLines(text, /^(\w+)\s*=\s*(FastAPI|APIRouter|Flask|Blueprint)\(([^)]*)\)/gm)) {
    const framework: Framework = match[2] === 'Flask' || match[2] === 'Blueprint' ? 'flask' : 'fastapi';
    const prefix = /(?:url_)?prefix\s*=\s*["']([^"']*)["']/.exec(match[3] ?? '')?.[1] ?? '';
    out.set(match[1] ?? '', { framework, prefix });
  }
  return out;
}

/** Pydantic models, dataclasses and TypedDicts: class name → annotated field names. */
function pythonShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match, line } of matchesWithLines(text, /^class (\w+)\((?:[\w.]*BaseModel|Schema|TypedDict|[\w.]*Serializer)[^)]*\):/gm)) {
    const body = sliceLines(text, line + 1, indentBlockEnd(text, line));
    const fields = [...body.matchAll(/^[ \t]{2,}(\w+)\s*(?::\s*[^=\n]+|=\s*serializers\.\w+)/gm)].map((m) => m[1] ?? '').filter((f) => f && f !== 'model_config');
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  return shapes;
}

/** Fields read from the request inside a handler: `request.json["x"]`, `data.get("x")`, `payload.x`. */
function handlerFields(body: string): string[] {
  const fields: string[] = [];
  const bound = new Set<string>(['request.json', 'request.data', 'request.form']);
  for (const m of body.matchAll(/(\w+)\s*=\s*(?:await\s+)?(request\.(?:get_json\(\)|json\(\)|json|data|form)|json\.loads\(request\.body\))/g)) bound.add(m[1] ?? '');
  for (const name of bound) {
    const escaped = name.replace('.', '\\.');
    for (const m of body.matchAll(new RegExp(`${escaped}(?:\\[["'](\\w+)["']\\]|\\.get\\(\\s*["'](\\w+)["'])`, 'g'))) {
      const field = m[1] ?? m[2];
      if (field && !fields.includes(field)) fields.push(field);
    }
  }
  return fields;
}

function endpoint(text: string, relPath: string, spec: { method: MutatingMethod; route: string; framework: Framework; line: number }): EndpointFinding {
  const def = nextLineMatching(text, spec.line, /^[ \t]*(?:async\s+)?def (\w+)\(([^)]*)/, 12);
  const end = def ? indentBlockEnd(text, def.line) : spec.line;
  const body = def ? sliceLines(text, def.line, end) : '';
  const fields = handlerFields(body);
  const params = def?.match[2] ?? '';
  const typed = [...params.matchAll(/(\w+)\s*:\s*([A-Z]\w*)/g)].map((m) => m[2] ?? '').find((t) => !/^(Request|Response|Session|AsyncSession|BackgroundTasks|Depends|Header|Optional)$/.test(t));
  return {
    method: spec.method,
    route: spec.route,
    framework: spec.framework,
    location: formatLocation(relPath, spec.line),
    ...(def ? { handler: def.match[1] } : {}),
    bodyFields: fields,
    ...(typed ? { bodyType: typed } : {}),
    webhook: /webhook|\bipn\b/i.test(spec.route) || /construct_event|verify_webhook_signature|is_valid_hmac/.test(body),
    span: { start: def?.line ?? spec.line, end },
  };
}

function scanRoutes(relPath: string, text: string, out: EndpointFinding[]): void {
  const bound = routers(text);
  const defaultFramework: Framework = /from fastapi|import fastapi/.test(text) ? 'fastapi' : /from flask|import flask/.test(text) ? 'flask' : 'django';
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@(\w+)\.(post|put|patch|delete)\(\s*["']([^"']*)["']/gm)) {
    const router = bound.get(match[1] ?? '');
    if (!router && defaultFramework === 'django') continue;
    const route = `${router?.prefix ?? ''}${match[3] ?? ''}` || '/';
    out.push(endpoint(text, relPath, { method: METHOD[match[2] ?? ''] as MutatingMethod, route, framework: router?.framework ?? defaultFramework, line }));
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@(\w+)\.(?:route|api_route)\(\s*["']([^"']*)["'][^)]*methods\s*=\s*\[([^\]]*)\]/gm)) {
    const router = bound.get(match[1] ?? '');
    const route = `${router?.prefix ?? ''}${match[2] ?? ''}` || '/';
    for (const method of (match[3] ?? '').match(/\w+/g) ?? []) {
      const upper = METHOD[method.toLowerCase()];
      if (upper) out.push(endpoint(text, relPath, { method: upper, route, framework: router?.framework ?? defaultFramework, line }));
    }
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@api_view\(\s*\[([^\]]*)\]/gm)) {
    const def = nextLineMatching(text, line, /def (\w+)\(/);
    for (const method of (match[1] ?? '').match(/\w+/g) ?? []) {
      const upper = METHOD[method.toLowerCase()];
      if (upper) out.push(endpoint(text, relPath, { method: upper, route: def?.match[1] ?? 'view', framework: 'django', line }));
    }
  }
  for (const { match, line } of matchesWithLines(text, /^class (\w+)\([^)]*(?:APIView|View|ViewSet|GenericAPIView|Mixin)[^)]*\):/gm)) {
    const body = sliceLines(text, line, indentBlockEnd(text, line));
    for (const method of matchesWithLines(body, /^[ \t]+def (post|put|patch|delete|create|update|partial_update|destroy)\(self/gm)) {
      const name = method.match[1] ?? '';
      const upper = METHOD[name] ?? VIEWSET[name];
      if (upper) out.push(endpoint(text, relPath, { method: upper, route: match[1] ?? 'view', framework: 'django', line: line + method.line - 1 }));
    }
  }
}

/**
 * Scans one Python file.
 * @example scanPython('app/main.py', 'app = FastAPI()\n@app.post("/payments")\nasync def pay(p: PaymentIn): ...').findings.endpoints
 */
export function scanPython(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  const shapes = pythonShapes(text);
  if (/(^|\/)(tests?|conftest)\b|(^|\/)test_[^/]*\.py$|_test\.py$/.test(relPath)) return { findings, shapes };
  scanRoutes(relPath, text, findings.endpoints);
  applyEffectRules(relPath, text, RULES, findings);
  return { findings, shapes };
}
