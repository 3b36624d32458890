module Storefront
  class CheckoutsController < ApplicationController
    def create
      basket = current_basket
      intent = Stripe::PaymentIntent.create({ amount: basket.total_cents, currency: basket.currency, payment_method: checkout_params[:payment_method_id], confirm: true })
      order = Order.place!(basket, checkout_params.merge(payment_intent_id: intent.id))
      render json: order, status: :created
    end

    private

    def checkout_params
      params.require(:checkout).permit(:email, :payment_method_id, shipping_address: %i[line1 city postcode])
    end
  end
end
