// Stripe over its REST API, without the SDK.
export async function refundCharge(chargeId, amount, idempotencyKey) {
  const response = await fetch('https://api.stripe.com/v1/refunds', {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${process.env.STRIPE_SECRET_KEY}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      'Idempotency-Key': idempotencyKey,
    },
    body: new URLSearchParams({ charge: chargeId, amount: String(amount) }),
  });
  return response.json();
}
