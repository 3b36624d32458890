/**
 * Ruby effects: Stripe calls through stripe-ruby 13's StripeClient (D8), code in comments that is
 * no call (D15, shared with PHP through effect-rules.ts), and job classes named with their modules (D17).
 */
import { describe, expect, it } from 'vitest';
import { codeFamilyOf, maskCode } from '../src/inspect/patterns/code-mask.js';
import { applyEffectRules } from '../src/inspect/patterns/effect-rules.js';
import { scanRuby } from '../src/inspect/patterns/ruby.js';
import { scanRubyJobs } from '../src/inspect/patterns/ruby-jobs.js';
import { emptyFindings } from '../src/inspect/types.js';

describe('Stripe in Ruby (D8)', () => {
  it('StripeClient v1 services: payment intents and checkout sessions, with and without idempotency_key:', () => {
    const text = [
      'class Billing',
      '  def initialize',
      '    @client = Stripe::StripeClient.new(ENV["STRIPE_KEY"])',
      '  end',
      '',
      '  def charge(order)',
      '    @client.v1.payment_intents.create({ amount: order.total, currency: "usd" })',
      '  end',
      '',
      '  def checkout(order)',
      '    client.v1.checkout.sessions.create({ mode: "payment" }, { idempotency_key: "checkout-#{order.id}" })',
      '  end',
      '',
      '  def legacy(order)',
      '    Stripe::Checkout::Session.create({ mode: "payment" })',
      '  end',
      'end',
    ].join('\n');
    const calls = scanRuby('app/models/billing.rb', text).findings.paymentCalls;
    expect(calls.map((c) => [c.call, c.location, c.passesIdempotencyKey])).toEqual([
      ['Stripe::Checkout::Session.create', 'app/models/billing.rb:15', false],
      ['@client.v1.payment_intents.create', 'app/models/billing.rb:7', false],
      ['client.v1.checkout.sessions.create', 'app/models/billing.rb:11', true],
    ]);
    expect(calls[1]?.fix).toMatchObject({ location: 'app/models/billing.rb:7', text: ', { idempotency_key: {{KEY}} }' });
    expect(calls[2]?.keyVerdict?.verdict).toBe('sound');
  });

  it('keyword-style parameters are braced into the params hash the options hash follows (a hash after keywords does not parse)', () => {
    const text = "class Pay\n  def call(order)\n    Stripe::Charge.create(amount: order.total, currency: 'usd')\n  end\nend\n";
    const [call] = scanRuby('app/services/pay.rb', text).findings.paymentCalls;
    expect(call?.fix).toMatchObject({
      location: 'app/services/pay.rb:3',
      text: "{ amount: order.total, currency: 'usd' }, { idempotency_key: {{KEY}} }",
    });
  });

  it('`.v1.payment_intents.create` in a file that never mentions Stripe is no Stripe call', () => {
    expect(scanRuby('app/models/api.rb', 'api.v1.payment_intents.create(x)\n').findings.paymentCalls).toEqual([]);
  });
});

describe('comments are no code (D15)', () => {
  it('Ruby: a Stripe call in a # comment or an =begin block is no call and gets no fix; code beside a comment still is', () => {
    const text = [
      'class Old',
      '  def run',
      "    # Stripe::Charge.create(amount: 100, currency: 'usd')",
      '=begin',
      '    Stripe::Refund.create(charge: id)',
      '=end',
      '    note = "#{id} # Stripe::Payout.create(x)"',
      '    Stripe::Transfer.create({ amount: 1 }) # Stripe::Charge.create(amount: 2)',
      '  end',
      'end',
    ].join('\n');
    const calls = scanRuby('app/services/old.rb', text).findings.paymentCalls;
    // The string is code (a literal), not a comment: what rules see in strings is unchanged.
    expect(calls.map((c) => `${c.call} @ ${c.location}`)).toEqual(['Stripe::Payout.create @ app/services/old.rb:7', 'Stripe::Transfer.create @ app/services/old.rb:8']);
  });

  it('PHP: //, # and /* */ comments, never a URL in a string or a #[attribute]', () => {
    const text = [
      '<?php',
      'class Old {',
      '  function run() {',
      "    // \\Stripe\\Charge::create(['amount' => 100]);",
      "    # \\Stripe\\Refund::create(['charge' => $id]);",
      "    /* $stripe->paymentIntents->create(['amount' => 1]);",
      "       $stripe->refunds->create(['charge' => $id]); */",
      "    $url = 'https://api.example.com/#x'; $stripe->payouts->create(['amount' => 2]);",
      '  }',
      '}',
    ].join('\n');
    const out = emptyFindings();
    applyEffectRules('app/Services/Old.php', text, [{ kind: 'payment', value: 'stripe', pattern: /->(paymentIntents|refunds|payouts)->create\(|\\Stripe\\(Charge|Refund)::create\(/, key: /idempotency_key/ }], out);
    expect(out.paymentCalls.map((c) => c.location)).toEqual(['app/Services/Old.php:8']);
    expect(maskCode("#[Route('/x')]\nf(); # c", 'php')).toBe("#[Route('/x')]\nf();    ");
  });

  it('blanks comments without moving a line or an offset; heredoc bodies are strings; Python is no family of code-mask', () => {
    const ruby = "a = 1 # one\nsql = <<~SQL\n  SELECT 1 -- don't # keep\nSQL\nb = 2 # two\n";
    const masked = maskCode(ruby, 'ruby');
    expect(masked.length).toBe(ruby.length);
    expect(masked.split('\n')).toEqual(['a = 1      ', 'sql = <<~SQL', "  SELECT 1 -- don't # keep", 'SQL', 'b = 2      ', '']);
    expect(codeFamilyOf('x.py')).toBeUndefined();
  });

  it('a job class commented out is no consumer', () => {
    const text = '# class OldWorker\n#   include Sidekiq::Job\n# end\n';
    expect(scanRuby('app/workers/old_worker.rb', text).findings.consumers).toEqual([]);
  });
});

describe('job class names keep their modules (D17)', () => {
  it('module Billing; class ChargeWorker is Billing::ChargeWorker, nested or compact; a sibling after the module is not', () => {
    const text = [
      'module Billing',
      '  module Stripe',
      '    class ChargeWorker',
      '      include Sidekiq::Job',
      '      def perform(id); end',
      '    end',
      '  end',
      '',
      '  class RefundJob < ApplicationJob',
      '    def perform; end',
      '  end',
      'end',
      '',
      'class TopLevelJob < ApplicationJob',
      '  def perform; end',
      'end',
      '',
      'module Mail; class DigestWorker',
      '  include Sidekiq::Worker',
      'end; end',
    ].join('\n');
    expect(scanRubyJobs('app/jobs/all.rb', text).map((c) => `${c.handler} @ ${c.location}`)).toEqual([
      'Billing::Stripe::ChargeWorker @ app/jobs/all.rb:3',
      'Mail::DigestWorker @ app/jobs/all.rb:18',
      'Billing::RefundJob @ app/jobs/all.rb:9',
      'TopLevelJob @ app/jobs/all.rb:14',
    ]);
  });
});
