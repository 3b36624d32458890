class OrdersController < ApplicationController
  def create
    order = Order.create!(order_params)
    ChargeOrderWorker.perform_async(order.id)
    render json: order, status: :created
  end

  private

  def order_params
    params.require(:order).permit(:customer_id, :total_cents, :currency)
  end
end
