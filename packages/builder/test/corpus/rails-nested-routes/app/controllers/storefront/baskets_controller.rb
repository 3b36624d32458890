module Storefront
  class BasketsController < ApplicationController
    def show
      render json: current_basket
    end

    def update
      if current_basket.update(basket_params)
        render json: current_basket
      else
        render json: { errors: current_basket.errors }, status: :unprocessable_entity
      end
    end

    def destroy
      current_basket.destroy!
      head :no_content
    end

    private

    def basket_params
      params.expect(basket: [:coupon_code, :gift_note])
    end
  end
end
