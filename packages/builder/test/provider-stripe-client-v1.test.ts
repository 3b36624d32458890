// Stripe.net 46+ (2024-10) reaches every service through a `StripeClient`: `client.V1.PaymentIntents.CreateAsync(options,
// requestOptions)`. Code written for this test in the spelling of stripe-dotnet's V1Services and PaymentIntentService.
import { describe, expect, it } from 'vitest';
import { scanDotnet } from '../src/inspect/patterns/dotnet.js';

const text = [
  'using Stripe;',
  'using Stripe.Checkout;',
  'public sealed class Billing(StripeClient client, IStripeClient injected) {',
  '  public async Task Charge(Order order, CancellationToken ct) {',
  '    var options = new PaymentIntentCreateOptions { Amount = order.Total, Currency = "usd" };',
  '    var requestOptions = new RequestOptions',
  '    {',
  '        IdempotencyKey = $"charge_{order.Id}"',
  '    };',
  '    var intent = await client.V1.PaymentIntents.CreateAsync(options,',
  '        requestOptions,',
  '        ct);',
  '  }',
  '  public async Task Refund(string paymentIntentId) {',
  '    await client.V1.Refunds.CreateAsync(new RefundCreateOptions { PaymentIntent = paymentIntentId }, new RequestOptions { IdempotencyKey = Guid.NewGuid().ToString() });',
  '  }',
  '  public async Task Capture(string paymentIntentId) {',
  '    await injected.V1.PaymentIntents.CaptureAsync(paymentIntentId, null, requestOptions: new RequestOptions { IdempotencyKey = $"capture_{paymentIntentId}" });',
  '  }',
  '  public Task Confirm(string id) => client.V1.PaymentIntents.ConfirmAsync(id);',
  '  public void Others(Payout p, Transfer t) {',
  '    client.V1.Payouts.Create(new PayoutCreateOptions { Amount = p.Amount, Currency = "usd" });',
  '    client.V1.Transfers.CreateAsync(new TransferCreateOptions { Amount = t.Amount, Destination = t.Account });',
  '    client.V1.Charges.CaptureAsync(p.ChargeId);',
  '    client.V1.Checkout.Sessions.CreateAsync(new SessionCreateOptions { Mode = "payment" });',
  '  }',
  '  public async Task NotMoney(string id, CalculationCreateOptions calc, string key) {',
  '    await client.V1.PaymentIntents.GetAsync(id);',
  '    await client.V1.Customers.CreateAsync(new CustomerCreateOptions { Email = "a@b.c" });',
  '    await client.V1.Tax.Calculations.CreateAsync(calc, new RequestOptions { IdempotencyKey = key });',
  '  }',
  '}',
].join('\n');

type Row = [call: string, location: string, passes: boolean, key: string | undefined, verdict: string | undefined];

describe('Stripe.net StripeClient.V1 services', () => {
  it('finds each money-moving V1 call once, with the key of the RequestOptions it passes', () => {
    const rows: Row[] = scanDotnet('Services/Billing.cs', text).findings.paymentCalls
      .map((c) => [c.call, c.location, c.passesIdempotencyKey, c.keyExpression, c.keyVerdict?.verdict]);
    expect(rows).toEqual([
      ['client.V1.PaymentIntents.CreateAsync', 'Services/Billing.cs:10', true, '$"charge_{order.Id}"', 'sound'],
      ['client.V1.Refunds.CreateAsync', 'Services/Billing.cs:15', true, 'Guid.NewGuid().ToString()', 'unsound'],
      ['injected.V1.PaymentIntents.CaptureAsync', 'Services/Billing.cs:18', true, '$"capture_{paymentIntentId}"', 'sound'],
      ['client.V1.PaymentIntents.ConfirmAsync', 'Services/Billing.cs:20', false, undefined, undefined],
      ['client.V1.Payouts.Create', 'Services/Billing.cs:22', false, undefined, undefined],
      ['client.V1.Transfers.CreateAsync', 'Services/Billing.cs:23', false, undefined, undefined],
      ['client.V1.Charges.CaptureAsync', 'Services/Billing.cs:24', false, undefined, undefined],
      ['client.V1.Checkout.Sessions.CreateAsync', 'Services/Billing.cs:25', false, undefined, undefined],
    ]);
  });

  it('the key variable is located where the RequestOptions initializer sets it', () => {
    const call = scanDotnet('Services/Billing.cs', text).findings.paymentCalls[0];
    expect(call?.keyLocation).toBe('Services/Billing.cs:8');
  });

  it('needs Stripe in the file: another SDK with a V1 property is not Stripe', () => {
    const other = 'using Acme;\npublic class X { void F() { acme.V1.Refunds.CreateAsync(r); } }';
    expect(scanDotnet('X.cs', other).findings.paymentCalls).toEqual([]);
  });
});
