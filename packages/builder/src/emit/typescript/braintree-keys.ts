/**
 * The Braintree part of the generated `provider-keys.ts`: the orderId derived from the local key,
 * and the lookup the runtime's `reconcile()` runs before an intent with an unknown outcome is
 * retried. Braintree keeps no idempotency key for most accounts, so a search by orderId, not a
 * re-send, tells whether the first attempt charged. The runtime has no Braintree code: this is
 * builder-written, over the runtime's `fitProviderKey`, `intentMaterial` and `ProviderLookup`.
 */
import { BRAINTREE_ORDER_ID_MAX_LENGTH } from '../../design/plan/providers.js';

/**
 * The Braintree declarations of `provider-keys.ts` (its imports come from the file's header).
 * @example braintreeKeys().includes('export function braintreeLookup')
 */
export function braintreeKeys(): string {
  return `/** Braintree's orderId limit (255 characters). Builder-written: the runtime has no Braintree constant. */
export const BRAINTREE_ORDER_ID_MAX_LENGTH = ${BRAINTREE_ORDER_ID_MAX_LENGTH};

/**
 * Braintree's orderId for an intent: the runtime's intent material fitted to 255. Pass it as the
 * sale's orderId (and as apiRequestKey where Braintree has enabled At-Most-Once Processing).
 * Builder-written: the runtime derives no Braintree ids.
 */
export function braintreeOrderId(intent: IntentId): string {
  return fitProviderKey(intentMaterial(intent), BRAINTREE_ORDER_ID_MAX_LENGTH);
}

/** What the lookup reads of a Braintree transaction (braintree's Transaction has these fields). */
export interface BraintreeTransactionLike {
  readonly id: string;
  readonly status: string;
  readonly orderId?: string | null;
  readonly amount?: string | null;
  readonly currencyIsoCode?: string | null;
}

/** The gateway's transaction search: braintree's gateway.transaction.search returns a readable stream, which is async-iterable. */
export interface BraintreeGatewayLike {
  readonly transaction: {
    search(build: (search: { orderId(): { is(value: string): unknown } }) => void): AsyncIterable<BraintreeTransactionLike>;
  };
}

/** What reconciliation stores for a Braintree sale found by its orderId. */
export interface BraintreeSaleResult {
  readonly provider: 'braintree';
  readonly id: string;
  readonly status: string;
  readonly amount: string | null;
  readonly currency: string | null;
  readonly orderId: string;
  readonly reconciled: true;
}

// A sale in one of these states took no money: the intent may run again.
const BRAINTREE_NOT_CHARGED = new Set(['failed', 'gateway_rejected', 'processor_declined', 'voided', 'authorization_expired', 'settlement_declined']);
// More than one live sale for an intent is already a split brain; reading further changes nothing.
const BRAINTREE_MAX_MATCHES = 10;

/**
 * A lookup for the runtime's reconcile(): Braintree keeps no idempotency key for most accounts,
 * so before an intent whose outcome is unknown runs again, its sales are searched by the orderId
 * braintreeOrderId derives (step 'charge' unless given). One live sale completes the record, none
 * releases it for a clean retry, two are a split brain left for a human to refund.
 * @example await reconcile({ idempotency, provider: 'braintree', lookup: braintreeLookup(gateway) });
 */
export function braintreeLookup(gateway: BraintreeGatewayLike, step = 'charge'): ProviderLookup<BraintreeSaleResult> {
  return async (record) => {
    const orderId = braintreeOrderId({ key: record.key, scope: record.scope, step });
    const found: BraintreeSaleResult[] = [];
    for await (const transaction of gateway.transaction.search((search) => {
      search.orderId().is(orderId);
    })) {
      // Only an exact orderId is this intent; a declined, rejected or voided sale took no money.
      if (transaction.orderId !== orderId || BRAINTREE_NOT_CHARGED.has(transaction.status)) continue;
      found.push({ provider: 'braintree', id: transaction.id, status: transaction.status, amount: transaction.amount ?? null, currency: transaction.currencyIsoCode ?? null, orderId, reconciled: true });
      if (found.length >= BRAINTREE_MAX_MATCHES) break;
    }
    if (found.length === 0) return { outcome: 'not_found' };
    if (found.length === 1) return { outcome: 'found', result: found[0]! };
    return { outcome: 'split_brain', results: found };
  };
}
`;
}
