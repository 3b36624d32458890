/** The inspector's provider calls as answers carry them into the document, each with the operation it performs. */
import type { ProviderCall } from '../answers-provider-calls.js';
import { operationOf } from '../inspect/provider-keys.js';
import type { Inspection } from '../inspect/types.js';

/**
 * Every money-moving provider call found, with its operation (the step of the derived key).
 * @example providerCallAnswers(inspection)[0]?.operation // 'refund'
 */
export function providerCallAnswers(inspection: Pick<Inspection, 'paymentCalls'>): ProviderCall[] {
  return inspection.paymentCalls.map((call) => ({ ...call, operation: operationOf(call.call) }));
}
