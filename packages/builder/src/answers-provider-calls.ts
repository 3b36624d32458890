/**
 * The money-moving provider calls the inspector found, as answers carry them into the document:
 * each with its key verdict and, where the code allows an edit, the line and the change that fix it.
 */
import { z } from 'zod';

/** Stands for the key derived from the local one in a fix's text; the document writes the stack's derivation there. */
export const KEY_PLACEHOLDER = '{{KEY}}';

export const CALL_PROVIDERS = ['stripe', 'adyen', 'paypal', 'bank-transfer', 'braintree'] as const;

export const fixSiteSchema = z.object({
  location: z.string(),
  /** The line as it is in the file. */
  line: z.string(),
  column: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
  /** What goes at `column`; `{{KEY}}` stands for the derived key. */
  text: z.string(),
});

export const providerCallSchema = z.object({
  provider: z.enum(CALL_PROVIDERS),
  call: z.string(),
  /** What the call does (`refund`, `capture`, ...): the step of the derived key. */
  operation: z.enum(['charge', 'refund', 'capture', 'cancel', 'payout', 'update']),
  location: z.string(),
  passesIdempotencyKey: z.boolean(),
  keyExpression: z.string().optional(),
  keyIssue: z.string().optional(),
  keyVerdict: z.object({ verdict: z.enum(['sound', 'unsound', 'unknown']), reason: z.string() }).optional(),
  keyLocation: z.string().optional(),
  fix: fixSiteSchema.optional(),
});

export type ProviderCall = z.infer<typeof providerCallSchema>;
export type FixSiteAnswer = z.infer<typeof fixSiteSchema>;
