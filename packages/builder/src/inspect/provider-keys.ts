/**
 * Soundness of a provider idempotency key from its expression as written: the key must be one per
 * intent and the same on every retry of that intent. The one place this judgement is made, for
 * every language's scanner; the reason is text the document and the audit show as it is.
 */
import { scanTopLevel } from './text-scan.js';

/** What a money-moving call does, which decides which ids identify its intent. */
export type PaymentOperation = 'charge' | 'refund' | 'capture' | 'cancel' | 'payout' | 'update';

export interface KeyVerdict {
  /** `unknown`: the key is made outside what was read (a parameter, another module). */
  readonly verdict: 'sound' | 'unsound' | 'unknown';
  readonly reason: string;
}

/**
 * The operation a provider call performs, from its call text or REST path.
 * @example operationOf('stripe.refunds.create') // 'refund'
 * @example operationOf('this.checkout.ModificationsApi.captureAuthorisedPayment') // 'capture'
 */
export function operationOf(call: string): PaymentOperation {
  const lower = call.toLowerCase();
  if (/refund|reversal|credit\b/.test(lower)) return 'refund';
  if (/capture|submit_?for_?(partial_?)?settlement|settle/.test(lower)) return 'capture';
  if (/cancel|void/.test(lower)) return 'cancel';
  if (/payout|transfer|disburse/.test(lower)) return 'payout';
  if (/update|amountupdate|amount_?updates|adjust/.test(lower)) return 'update';
  return 'charge';
}

// A value made at the call: a retry of the same code makes another one.
const FRESH = /\b(randomUUID|uuidv4|uuid4|v4|nanoid|cuid2?|ulid|createId|randomBytes|token_hex|token_urlsafe)\s*\(|\buuid\s*\(\s*\)|\buuid\.(uuid4|v4)\b|\bMath\.random\b|\bDate\.now\b|\bnew Date\s*\(|\btime\.time\s*\(|\bdatetime\.(now|utcnow)\b|\bUUID\.randomUUID\b|\bGuid\.NewGuid\b|\buuid\.New(String)?\s*\(|\bSecureRandom\b|\bSystem\.(currentTimeMillis|nanoTime)\b|\bInstant\.now\b|\btime\.Now\s*\(|\bDateTime\.(Now|UtcNow)\b|\bTime\.now\b|\bperformance\.now\b|\bprocess\.hrtime\b|\b(uniqid|microtime|\w*[Rr]andom\w*)\s*\(|\bStr::(uuid|orderedUuid|ulid)\b/;
// A helper that makes a key from inputs this file does not show (`$this->idempotencyHelper->generateIdempotencyKey($request)`):
// named like a key, but not one of the derivations from the local key above.
const KEY_MAKER = /\b(?:generate|create|make|build|new|compute|calc)\w*Idempot\w*\s*\(/i;
// Derived from the local idempotency key: the runtime's and the generated code's derivations, or the key itself.
const LOCAL_KEY_DERIVATION = /(stripeIdempotencyKey|adyenIdempotencyKey|stripe_idempotency_key|adyen_idempotency_key|StripeIdempotencyKey|AdyenIdempotencyKey)\s*\(/;
const LOCAL_KEY = /(stripeIdempotencyKey|adyenIdempotencyKey|paypalRequestId|adyenReference|intentMaterial|fitProviderKey|stripe_idempotency_key|adyen_idempotency_key|paypal_request_id|intent_material|fit_provider_key|StripeIdempotencyKey|AdyenIdempotencyKey|PaypalRequestID|IntentMaterial|FitProviderKey)\s*\(|idempot/i;

/** Ids of the resource each operation creates (or of the local row made for it): one per intent. */
const OWN: Record<PaymentOperation, RegExp> = {
  charge: /payment|charge|intent|order|checkout|session|invoice|purchase|cart|booking|reservation|subscription|donation|sale|transaction/,
  refund: /refund|return|creditnote|chargeback|dispute|claim/,
  capture: /capture|payment|intent|authori[sz]ation|^auth$|order|charge|transaction|shipment|fulfil+ment/,
  cancel: /cancel|payment|intent|authori[sz]ation|^auth$|order|charge|transaction/,
  payout: /payout|transfer|withdrawal|disbursement|settlement|remittance/,
  update: /update|amendment|adjustment|modification/,
};
// The local row or record made for this very intent, whatever the operation (`refundRow.id`, `attempt.id`).
const LOCAL_ROW = /record|row$|entry|attempt|^job$|^task$|operation|ledger|journal|outbox|command/;
// Values two distinct intents share: who pays, with what, how much, when.
const SHARED = /^(amount|price|total|sum|value|currency|quantity|qty|count|email|user|customer|client|account|merchant|shop|store|tenant|card|paymentmethod|method|source|token|sku|product|item|plan|date|day|month|year|time|timestamp|country|description|reason|note|name)$/;

interface Part {
  /** As written: `order.id`, `orderId`, `amount`. */
  readonly text: string;
  /** The noun it is an id of (`order` for `order.id` and `orderId`), or the value's name. */
  readonly noun: string;
  readonly isId: boolean;
}

function normalise(word: string): string {
  return word.toLowerCase().replace(/[_$-]/g, '');
}

// A string literal with the prefix that decides its interpolation: JS `…${x}…`, C# $"…{x}…", Python f"…{x}…",
// Ruby "…#{x}…", PHP "…{$x->id}…" / "…$x…".
const LITERAL = /([$@]{0,2})([fFrRbB]?)(['"`])((?:\\.|(?!\3)[^\\])*)\3/g;

function interpolationsOf(prefix: string, flag: string, quote: string, body: string): string[] {
  const inner = (pattern: RegExp): string[] => [...body.matchAll(pattern)].map((m) => (m[1] ?? '').replace(/[:,!][^:,!]*$/, (tail) => (/^[:,!][\w .#%-]*$/.test(tail) ? '' : tail)));
  if (quote === '`') return inner(/\$\{([^}]*)\}/g);
  if (prefix.includes('$') || /^[fF]$/.test(flag)) return inner(/(?<!\{)\{(?!\{)([^{}]+)\}/g);
  if (quote !== '"') return [];
  return [...inner(/#\{([^}]*)\}/g), ...inner(/\{(\$[^}]*)\}/g), ...[...body.matchAll(/(?<!\{)(\$[A-Za-z_]\w*(?:->\w+)*)/g)].map((m) => m[1] ?? '')];
}

/** The expression with every string literal replaced by the code it interpolates: what the key is built from. */
function codeOf(expression: string): string {
  return expression.replace(LITERAL, (_literal, prefix: string, flag: string, quote: string, body: string) => ` ${interpolationsOf(prefix, flag, quote, body).join(' ')} `);
}

// Conversions that say nothing about what a value is (`order.getId().toString()`).
const CONVERSION = /^(toString|ToString|to_s|str|String|valueOf|toLowerCase|toUpperCase|ToLower|ToUpper|ToLowerInvariant|trim|strip)$/;

/** The named values an expression is built from: interpolations and identifiers outside string literals. */
function partsOf(expression: string): Part[] {
  const out: Part[] = [];
  for (const m of codeOf(expression).matchAll(/[A-Za-z_$][\w$]*(?:\s*\(\s*\))?(?:\s*(?:\?\.|\.|->|::)\s*[A-Za-z_$][\w$]*(?:\s*\(\s*\))?|\[\s*['"][^'"\]]+['"]\s*\])*/g)) {
    const text = m[0].replace(/\s+/g, '');
    // `getId()` reads `id`: a Java getter names the value it returns.
    const segments = text.split(/\?\.|\.|->|::|\[['"]|['"]\]/).map((segment) => segment.replace(/\(\)$/, '').replace(/^get([A-Z]\w*)$/, (_g, rest: string) => `${rest[0]?.toLowerCase() ?? ''}${rest.slice(1)}`)).filter((segment) => segment && segment !== '$');
    while (segments.length > 1 && CONVERSION.test(segments[segments.length - 1] ?? '')) segments.pop();
    if (segments.length === 0 || /^(await|new|this|self|const|let|var|return|str|String|fmt|Sprintf|format|toString|join|f|true|false|null|None|nil)$/.test(segments[0] ?? '') && segments.length === 1) continue;
    const last = segments[segments.length - 1] ?? '';
    const idSuffix = /^(.*?)(_?id|Id|ID|Reference|_reference|Ref)$/.exec(last);
    if (/^(id|ID|Id|uuid|pk|reference)$/.test(last) && segments.length > 1) {
      out.push({ text, noun: normalise(segments[segments.length - 2] ?? ''), isId: true });
    } else if (idSuffix && idSuffix[1]) {
      out.push({ text, noun: normalise(idSuffix[1]), isId: true });
    } else {
      out.push({ text, noun: normalise(last), isId: false });
    }
  }
  return out;
}

const quote = (parts: readonly Part[]): string => parts.map((p) => `\`${p.text}\``).join(', ');

const SHARED_EXAMPLE: Record<PaymentOperation, string> = {
  charge: 'two equal purchases by one customer share it, and the provider answers the second with the first one’s result: the customer is never charged for it',
  refund: 'two equal partial refunds of one order share it, and the provider answers the second with the first one’s result: the second refund never happens',
  capture: 'two partial captures of one authorisation with equal amounts share it: the second is answered with the first',
  cancel: 'two cancellations it stands for share it',
  payout: 'two equal payouts to one recipient share it: the second is answered with the first and never paid',
  update: 'two equal amount updates share it: the second is answered with the first',
};

/**
 * Judges a provider key from its expression (after following a variable to its value, where the
 * scanner could) for a call performing `operation`.
 * @example judgeKey('`refund-${orderId}-${amount}`', 'refund').verdict // 'unsound': two equal partial refunds share it
 * @example judgeKey("stripeIdempotencyKey({ key: idempotencyKey, scope })", 'charge').verdict // 'sound'
 * @example judgeKey('randomUUID()', 'charge').verdict // 'unsound': a retry sends a new key
 */
export function judgeKey(expression: string, operation: PaymentOperation = 'charge'): KeyVerdict {
  const written = expression.trim();
  const code = codeOf(written);
  const fresh = FRESH.exec(code);
  if (fresh) {
    return { verdict: 'unsound', reason: `\`${fresh[0].replace(/\s*\($/, '()')}\` is made at the call: a retry of this code sends a new key, so the provider cannot recognise the retry and moves the money again` };
  }
  const maker = KEY_MAKER.exec(written);
  if (maker && !LOCAL_KEY_DERIVATION.test(written)) {
    return { verdict: 'unknown', reason: `\`${maker[0].replace(/\s*\($/, '()')}\` makes the key outside the code read here: whether it is one per intent and the same on every retry depends on what it is given and how it combines it` };
  }
  if (LOCAL_KEY.test(written)) {
    const raw = /headers?\b|\.get\(|header\(|request\.|req\./i.test(written) && !/Idempotency[A-Z]\w*\(|_idempotency_key\(|scope|user|tenant|account/i.test(written);
    return {
      verdict: 'sound',
      reason: raw
        ? 'the request’s own idempotency key: one per intent, the same on every retry (it is not qualified by the user scope: two users who pick the same key would meet at the provider — the runtime’s derivation qualifies it)'
        : 'derived from the local idempotency key: one per intent, the same on every retry',
    };
  }
  const parts = partsOf(written);
  const own = parts.find((p) => p.isId && !SHARED.test(p.noun) && (OWN[operation].test(p.noun) || LOCAL_ROW.test(p.noun)));
  if (own) return { verdict: 'sound', reason: `\`${own.text}\` is a stored unique id of this ${operation === 'charge' ? 'payment' : operation}: one per intent, the same on every retry` };
  const shared = parts.filter((p) => SHARED.test(p.noun) || p.isId);
  if (parts.length > 0 && shared.length === parts.length) {
    return { verdict: 'unsound', reason: `built only from values two distinct intents can share (${quote(shared)}): ${SHARED_EXAMPLE[operation]}` };
  }
  if (parts.length === 0 && /^[$@]{0,2}[fFrRbB]?(['"`])/.test(written)) {
    return { verdict: 'unsound', reason: 'a constant: every call sends the same key, so every intent after the first is answered with the first one’s result' };
  }
  const unknown = parts.filter((p) => !shared.includes(p));
  return { verdict: 'unknown', reason: `${quote(unknown.length > 0 ? unknown : parts)} is made outside the code read here: whether it is one per intent and the same on every retry cannot be told from this file` };
}

/**
 * Why a provider key is unsound, when its expression shows it (the short form of `judgeKey`).
 * @example keyIssue('`${userId}-${amount}`') // 'built only from values two distinct intents can share …'
 */
export function keyIssue(expression: string, operation: PaymentOperation = 'charge'): string | undefined {
  const verdict = judgeKey(expression, operation);
  return verdict.verdict === 'unsound' ? verdict.reason : undefined;
}

// Every spelling of a provider key the SDKs take, ending where the value starts: keyword arguments and
// options (`idempotency_key=`, `IdempotencyKey =`, `'idempotency_key' =>`), setters and builders
// (`setIdempotencyKey(`, `AddIdempotencyKey(`, `.paypalRequestId(`, `.PayPalRequestId(`, `.pay_pal_request_id(`),
// PayPal server SDK inputs (`PaypalRequestId =`, `'paypalRequestId' =>`, `"paypal_request_id":`), Braintree's
// `apiRequestKey`, and header entries and assignments (`Headers.Add("PayPal-Request-Id", …)`, `headers["PayPal-Request-Id"] = …`).
const KEY_AT = /(?:idempotency_key\s*[=:](?![=>])|['"]idempotency_key['"]\s*(?:=>|\]\s*=(?!=))|SetIdempotencyKey\(|IdempotencyKey\s*=(?![=>])|idempotencyKey\(|['"]idempotencyKey['"]\s*(?:=>|:|\]\s*=(?!=))|pay_pal_request_id\s*(?:=(?![=>])|\()|paypal_request_id\s*[=:](?![=>])|['"]paypal_request_id['"]\s*(?::|=>|\]\s*=(?!=))|paypalRequestId\s*(?:\(|=(?![=>]))|['"]paypalRequestId['"]\s*(?:=>|:|\]\s*=(?!=))|api_request_key\s*[=:](?![=>])|['"]api_request_key['"]\s*(?::|=>)|apiRequestKey\s*[:(]|['"](?:PayPal-Request-Id|Idempotency-Key)['"]\s*(?::|=>|,|\]\s*=(?!=)))\s*/i;

/**
 * The key expression inside a provider call's text (or a statement that sets up what it passes),
 * with the offset of the value in that text.
 * @example keyExpressionAt('opts = RequestOptions.builder().setIdempotencyKey(key).build()') // { value: 'key', index: 50 }
 */
export function keyExpressionAt(callText: string): { value: string; index: number } | undefined {
  const m = KEY_AT.exec(callText);
  if (!m) return undefined;
  const index = m.index + m[0].length;
  const value = expressionAt(callText, index).trim();
  return value.length > 0 ? { value, index } : undefined;
}

/**
 * The key expression inside a provider call's text, for the pattern scanners (`idempotency_key=…`,
 * `SetIdempotencyKey(…)`, `IdempotencyKey = …`, `'idempotency_key' => …`, `api_request_key=…`,
 * a `PayPal-Request-Id` / `Idempotency-Key` header entry, a PayPal request id setter).
 * @example keyExpressionIn('stripe.Refund.create(charge=c, idempotency_key=f"{user}-{amount}")') // 'f"{user}-{amount}"'
 */
export function keyExpressionIn(callText: string): string | undefined {
  return keyExpressionAt(callText)?.value;
}

/** The expression starting at `from`: up to the first `,` `)` `]` `}` `;` or line end outside brackets and strings. */
function expressionAt(text: string, from: number): string {
  return text.slice(from, scanTopLevel(text, from, (char) => ',)]};\n'.includes(char)));
}
