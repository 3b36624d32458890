/**
 * Soundness of a provider idempotency key from its expression as written: the key must be one per
 * intent and the same on every retry of that intent. The one place this judgement is made, for
 * every language's scanner; the reason is text the document and the audit show as it is.
 */

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
const FRESH = /\b(randomUUID|uuidv4|uuid4|v4|nanoid|cuid2?|ulid|createId|randomBytes|token_hex|token_urlsafe)\s*\(|\buuid\s*\(\s*\)|\buuid\.(uuid4|v4)\b|\bMath\.random\b|\bDate\.now\b|\bnew Date\s*\(|\btime\.time\s*\(|\bdatetime\.(now|utcnow)\b|\bUUID\.randomUUID\b|\bGuid\.NewGuid\b|\buuid\.New(String)?\s*\(|\bSecureRandom\b|\bSystem\.(currentTimeMillis|nanoTime)\b|\bInstant\.now\b|\btime\.Now\s*\(|\bDateTime\.(Now|UtcNow)\b|\bTime\.now\b|\bperformance\.now\b|\bprocess\.hrtime\b/;
// Derived from the local idempotency key: the runtime's and the generated code's derivations, or the key itself.
const LOCAL_KEY = /(stripeIdempotencyKey|adyenIdempotencyKey|paypalRequestId|adyenReference|intentMaterial|fitProviderKey|stripe_idempotency_key|adyen_idempotency_key|paypal_request_id|intent_material|fit_provider_key|StripeIdempotencyKey|AdyenIdempotencyKey|PaypalRequestID|IntentMaterial|FitProviderKey)\s*\(|idempot/i;

/** Ids of the resource each operation creates (or of the local row made for it): one per intent. */
const OWN: Record<PaymentOperation, RegExp> = {
  charge: /payment|charge|intent|order|checkout|session|invoice|purchase|cart|booking|reservation|subscription|donation|sale/,
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
  return word.toLowerCase().replace(/[_-]/g, '');
}

/** The named values an expression is built from: interpolations and identifiers outside string literals. */
function partsOf(expression: string): Part[] {
  const interpolated = [...expression.matchAll(/\$\{([^}]*)\}|#\{([^}]*)\}/g)].map((m) => m[1] ?? m[2] ?? '');
  // f-strings and str.format / String.format / Sprintf arguments: `{x}` inside f"…" only.
  const fString = /^[fF]['"]/.test(expression) ? [...expression.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '') : [];
  const code = expression.replace(/\$\{[^}]*\}|#\{[^}]*\}/g, ' ').replace(/[fFrRbB]?(['"`])(?:\\.|(?!\1).)*\1/g, ' ');
  const sources = [code, ...interpolated, ...fString];
  const out: Part[] = [];
  for (const source of sources) {
    for (const m of source.matchAll(/[A-Za-z_$][\w$]*(?:\s*(?:\?\.|\.|->|::)\s*[A-Za-z_$][\w$]*|\[\s*['"][^'"\]]+['"]\s*\])*(?:\s*\(\s*\))?/g)) {
      const text = m[0].replace(/\s+/g, '');
      const segments = text.replace(/\(\)$/, '').split(/\?\.|\.|->|::|\[['"]|['"]\]/).filter(Boolean);
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
  const code = written.replace(/[fFrRbB]?(['"`])(?:\\.|(?!\1).)*\1/g, (literal) => (literal.includes('${') || literal.includes('#{') || /^[fF]/.test(literal) ? literal : '""'));
  const fresh = FRESH.exec(code);
  if (fresh) {
    return { verdict: 'unsound', reason: `\`${fresh[0].replace(/\s*\($/, '()')}\` is made at the call: a retry of this code sends a new key, so the provider cannot recognise the retry and moves the money again` };
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
  if (parts.length === 0 && /^[fFrRbB]?(['"`])/.test(written)) {
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

/**
 * The key expression inside a provider call's text, for the pattern scanners (`idempotency_key=…`,
 * `SetIdempotencyKey(…)`, `IdempotencyKey = …`, `'idempotency_key' => …`, `api_request_key=…`,
 * a `PayPal-Request-Id` / `Idempotency-Key` header entry).
 * @example keyExpressionIn('stripe.Refund.create(charge=c, idempotency_key=f"{user}-{amount}")') // 'f"{user}-{amount}"'
 */
export function keyExpressionIn(callText: string): string | undefined {
  const m = /(?:idempotency_key\s*[=:]|['"]idempotency_key['"]\s*=>|SetIdempotencyKey\(|IdempotencyKey\s*=|setIdempotencyKey\(|idempotencyKey\(|pay_pal_request_id\s*=|paypal_request_id\s*=|['"]paypal_request_id['"]\s*:|api_request_key\s*[=:]|['"]api_request_key['"]\s*(?::|=>)|apiRequestKey\s*[:(]|['"](?:PayPal-Request-Id|Idempotency-Key)['"]\s*(?::|=>|,))\s*/i.exec(callText);
  if (!m) return undefined;
  const value = expressionAt(callText, m.index + m[0].length).trim();
  return value.length > 0 ? value : undefined;
}

/** The expression starting at `from`: up to the first `,` `)` `]` `}` `;` or line end outside brackets and strings. */
function expressionAt(text: string, from: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (depth > 0 && ')]}'.includes(char)) depth -= 1;
    else if (depth === 0 && (',)]};\n'.includes(char))) return text.slice(from, i);
  }
  return text.slice(from);
}
