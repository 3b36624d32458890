class ChargeOrderWorker
  include Sidekiq::Job
  sidekiq_options queue: "payments", retry: 5

  def perform(order_id)
    order = Order.find(order_id)
    intent = Stripe::PaymentIntent.create({ amount: order.total_cents, currency: "eur", customer: order.customer_id }, { idempotency_key: "order-#{order.id}" })
    order.update!(payment_intent_id: intent.id, status: "charged")
  end
end
