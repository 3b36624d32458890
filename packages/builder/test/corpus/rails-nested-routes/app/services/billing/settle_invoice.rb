module Billing
  class SettleInvoice
    def initialize(client: Stripe::StripeClient.new(ENV.fetch("STRIPE_SECRET_KEY")))
      @client = client
    end

    def settle(invoice, amount_cents)
      intent = @client.v1.payment_intents.create({ amount: amount_cents, currency: invoice.currency, customer: invoice.stripe_customer_id }, { idempotency_key: "invoice-#{invoice.id}-settle" })
      invoice.payments.create!(amount_cents: amount_cents, payment_intent_id: intent.id)
    end

    # Refunds went through the dashboard until the support tool ships:
    # def refund(payment)
    #   Stripe::Refund.create(payment_intent: payment.payment_intent_id)
    # end
  end
end
