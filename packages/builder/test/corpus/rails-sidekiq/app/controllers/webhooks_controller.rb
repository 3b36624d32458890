class WebhooksController < ApplicationController
  skip_before_action :verify_authenticity_token

  def stripe
    event = Stripe::Webhook.construct_event(request.body.read, request.headers["Stripe-Signature"], ENV["STRIPE_WEBHOOK_SECRET"])
    return head :ok if StripeEvent.exists?(event_id: event.id)

    Order.find_by!(payment_intent_id: event.data.object.id).mark_paid! if event.type == "payment_intent.succeeded"
    StripeEvent.create!(event_id: event.id, event_type: event.type)
    head :ok
  end
end
