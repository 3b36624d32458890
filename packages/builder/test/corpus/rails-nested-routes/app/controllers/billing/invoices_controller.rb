module Billing
  class InvoicesController < ApplicationController
    def index
      render json: Invoice.open
    end

    def create
      invoice = Invoice.create!(invoice_params)
      render json: invoice, status: :created
    end

    def void_all
      Invoice.open.update_all(status: "void")
      head :no_content
    end

    private

    def invoice_params
      params.require(:invoice).permit(:customer_id, :due_on)
    end
  end
end
