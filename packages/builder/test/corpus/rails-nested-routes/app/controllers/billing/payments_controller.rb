module Billing
  class PaymentsController < ApplicationController
    def create
      invoice = Invoice.find(params[:invoice_id])
      payment = SettleInvoice.new.settle(invoice, payment_params[:amount_cents])
      render json: payment, status: :created
    end

    def destroy
      Payment.find(params[:id]).destroy
      head :no_content
    end

    private

    def payment_params
      params.require(:payment).permit(:amount_cents)
    end
  end
end
