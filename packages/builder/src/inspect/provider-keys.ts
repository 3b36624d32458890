/**
 * Soundness of a provider idempotency key from its expression as written: the key must be one per
 * intent and the same on every retry of that intent.
 */

/**
 * Why a provider key is unsound, when its expression shows it: a fresh random value per attempt
 * (a retry gets a new key, so the provider cannot deduplicate), or a key built from what two
 * genuine purchases share (user + amount), so the second is answered with the first.
 * @example keyIssue('`${userId}-${amount}`') // 'built from user/amount values: …'
 */
export function keyIssue(expression: string): string | undefined {
  if (/randomUUID|uuid(v4)?\(|\bv4\(|Math\.random|nanoid|Date\.now|new Date\(/.test(expression)) {
    return 'a fresh random or time-based value per attempt: a retry sends a new key, so the provider cannot deduplicate it; derive it from the request\'s idempotency key or the order id instead';
  }
  if (/idempot|order_?id|orderId|intent|request_?id|reference|\.id\b|Id\b/i.test(expression)) return undefined;
  if (/amount|price|total|email|user|customer|card|currency|quantity/i.test(expression)) {
    return 'built from values two genuine purchases share (customer, card, amount): the second purchase is answered with the first one\'s result; derive it from the request\'s idempotency key or the order id instead';
  }
  return undefined;
}

/**
 * The key expression inside a provider call's text, for the pattern scanners (`idempotency_key=…`,
 * `SetIdempotencyKey(…)`, `IdempotencyKey = …`, `'idempotency_key' => …`).
 * @example keyExpressionIn('stripe.Refund.create(charge=c, idempotency_key=f"{user}-{amount}")') // 'f"{user}-{amount}"'
 */
export function keyExpressionIn(callText: string): string | undefined {
  const m = /(?:idempotency_key\s*[=:]|['"]idempotency_key['"]\s*=>|SetIdempotencyKey\(|IdempotencyKey\s*=|setIdempotencyKey\(|pay_pal_request_id\s*=|paypal_request_id\s*=)\s*([^,)\n]+(?:\([^)]*\))?)/i.exec(callText);
  return m?.[1]?.trim();
}
