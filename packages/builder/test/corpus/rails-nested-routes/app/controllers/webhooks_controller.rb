class WebhooksController < ApplicationController
  skip_before_action :verify_authenticity_token

  def stripe
    event = Stripe::Webhook.construct_event(request.body.read, request.headers["Stripe-Signature"], ENV.fetch("STRIPE_WEBHOOK_SECRET"))
    Billing::ReceiptWorker.perform_async(event.data.object.id) if event.type == "payment_intent.succeeded"
    head :ok
  end
end
