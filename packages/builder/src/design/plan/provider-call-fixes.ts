/**
 * The concrete fix for a provider call without a sound key: a unified diff built from the line as
 * it is in the file, putting there the key derived from the local one by the stack's own code —
 * the runtime's `/payments` exports for TS/JS, the generated `provider_keys` module for Python and
 * Java — or, where the code allows no edit, a snippet.
 */
import { KEY_PLACEHOLDER, type FixSiteAnswer, type ProviderCall } from '../../answers-provider-calls.js';
import { BRAINTREE_ORDER_ID_MAX_LENGTH } from './providers.js';

/** What the fix may use: the generated code's language and whether it ships its own provider-key module. */
export interface FixContext {
  readonly stackLanguage: string;
  /** The generated TS `provider-keys.ts` exists (it binds the service's PayPal namespace). */
  readonly tsProviderKeys: boolean;
  /** The generated standalone module (`provider_keys.py`, `ProviderKeys.java`, `provider_keys.go`) exists. */
  readonly standaloneKeys: boolean;
}

export interface CallFix {
  /** Unified diff of the change at the fix site. */
  readonly diff?: string;
  /** The import the changed line needs. */
  readonly imports?: string;
  /** The derived key as an expression in the call's language. */
  readonly expression?: string;
  readonly language: 'typescript' | 'javascript' | 'python' | 'java' | 'go' | 'text';
  /** The names the expression reads: the action's local key and scope. */
  readonly keyName: string;
}

type FileLanguage = CallFix['language'];

function fileLanguage(location: string): FileLanguage {
  const ext = /\.(\w+):\d+$/.exec(location)?.[1] ?? '';
  if (/^(ts|tsx|mts|cts)$/.test(ext)) return 'typescript';
  if (/^(js|jsx|mjs|cjs)$/.test(ext)) return 'javascript';
  if (ext === 'py') return 'python';
  if (ext === 'java' || ext === 'kt') return 'java';
  if (ext === 'go') return 'go';
  return 'text';
}

/**
 * The function that derives each provider's key: the runtime's export (TS), or the generated
 * `provider_keys` module's (Python, Java). Braintree's `orderId` is generated code in every
 * language (the runtime has no Braintree derivation): the intent material fitted to 255.
 */
const TS_FUNCTION: Record<ProviderCall['provider'], string> = {
  stripe: 'stripeIdempotencyKey', adyen: 'adyenIdempotencyKey', paypal: 'paypalRequestId', braintree: 'braintreeOrderId', 'bank-transfer': 'intentMaterial',
};
const PY_FUNCTION: Record<ProviderCall['provider'], string> = {
  stripe: 'stripe_idempotency_key', adyen: 'adyen_idempotency_key', paypal: 'paypal_request_id', braintree: 'braintree_order_id', 'bank-transfer': 'end_to_end_id',
};
const JAVA_FUNCTION: Record<ProviderCall['provider'], string> = {
  stripe: 'stripeIdempotencyKey', adyen: 'adyenIdempotencyKey', paypal: 'paypalRequestId', braintree: 'braintreeOrderId', 'bank-transfer': 'endToEndId',
};

/** Providers whose TS derivation lives in the generated `provider-keys.ts` when it exists (a service namespace, or no runtime function). */
const GENERATED_IN_TS = new Set<ProviderCall['provider']>(['paypal', 'braintree']);

function derivedExpression(call: ProviderCall, language: FileLanguage, ctx: FixContext, key: string): { expression: string; imports?: string } | undefined {
  const step = call.operation;
  if (language === 'typescript' || language === 'javascript') {
    const intent = `{ key: ${key}, scope, step: '${step}' }`;
    if (call.provider === 'braintree' && !ctx.tsProviderKeys) {
      // No generated provider-keys.ts to import from: the same derivation from the runtime's parts.
      return { expression: `fitProviderKey(intentMaterial(${intent}), ${BRAINTREE_ORDER_ID_MAX_LENGTH})`, imports: "import { fitProviderKey, intentMaterial } from '@idempotency-builder/runtime/payments';" };
    }
    // The generated provider-keys.ts binds this service's PayPal namespace and derives Braintree's orderId.
    const from = GENERATED_IN_TS.has(call.provider) && ctx.tsProviderKeys ? './idempotency/provider-keys.js' : '@idempotency-builder/runtime/payments';
    return { expression: `${TS_FUNCTION[call.provider]}(${intent})`, imports: `import { ${TS_FUNCTION[call.provider]} } from '${from}';` };
  }
  if (!ctx.standaloneKeys || ctx.stackLanguage !== language) return undefined;
  const args = `${key}, scope, "${step}"`;
  if (language === 'python') return { expression: `${PY_FUNCTION[call.provider]}(${args})`, imports: `from idempotency.provider_keys import ${PY_FUNCTION[call.provider]}` };
  if (language === 'java') return { expression: `ProviderKeys.${JAVA_FUNCTION[call.provider]}(${args})`, imports: 'import com.example.idempotency.ProviderKeys;' };
  return undefined;
}

/** The local key's name in the fixed line: `idempotencyKey`, unless the line declares that very name. */
function localKeyName(site: FixSiteAnswer | undefined, language: FileLanguage): string {
  const name = language === 'python' ? 'idempotency_key' : 'idempotencyKey';
  // A declaration or assignment of that name (not a keyword argument `idempotency_key=` inside a call).
  const declares = site && new RegExp(`^\\s*(?:(?:const|let|var|final|String)\\s+)?${name}\\s*(?::=|=(?!=))`).test(site.line);
  return declares ? (language === 'python' ? 'local_key' : 'localKey') : name;
}

/**
 * The lines of the file after the fix (the site's one line may become several).
 * @example applyFix({ location: 'a.ts:3', line: 'f(k)', column: 2, length: 1, text: '{{KEY}}' }, 'K') // ['f(K)']
 */
export function applyFix(site: FixSiteAnswer, derivedKey: string): string[] {
  const inserted = site.text.split(KEY_PLACEHOLDER).join(derivedKey);
  return `${site.line.slice(0, site.column)}${inserted}${site.line.slice(site.column + site.length)}`.split('\n');
}

/**
 * A unified diff of one fix site: the line as it is, then as it becomes.
 * @example unifiedDiff({ location: 'src/a.ts:3', line: 'f(k)', column: 2, length: 1, text: '{{KEY}}' }, 'K')
 * // '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3 +3 @@\n-f(k)\n+f(K)'
 */
export function unifiedDiff(site: FixSiteAnswer, derivedKey: string): string {
  const path = site.location.replace(/:\d+$/, '');
  const line = Number(/:(\d+)$/.exec(site.location)?.[1] ?? '1');
  const after = applyFix(site, derivedKey);
  const range = after.length === 1 ? `${line}` : `${line},${after.length}`;
  return [`--- a/${path}`, `+++ b/${path}`, `@@ -${line} +${range} @@`, `-${site.line}`, ...after.map((l) => `+${l}`)].join('\n');
}

/**
 * The fix for one provider call: a diff at its fix site when there is one and the stack can derive
 * the key in the call's language; otherwise the expression alone (the document then shows a snippet).
 * @example callFix(call, { stackLanguage: 'typescript', tsProviderKeys: false, standaloneKeys: false }).diff
 */
export function callFix(call: ProviderCall, ctx: FixContext): CallFix {
  const language = fileLanguage(call.fix?.location ?? call.location);
  const keyName = localKeyName(call.fix, language);
  const derived = derivedExpression(call, language, ctx, keyName);
  if (!derived) return { language, keyName };
  return {
    language, keyName, expression: derived.expression,
    ...(derived.imports ? { imports: derived.imports } : {}),
    ...(call.fix ? { diff: unifiedDiff(call.fix, derived.expression) } : {}),
  };
}
