module Storefront
  class LinesController < ApplicationController
    def create
      line = current_basket.lines.create!(line_params)
      render json: line, status: :created
    end

    def destroy
      current_basket.lines.find(params[:id]).destroy
      head :no_content
    end

    private

    def line_params
      params.require(:line).permit(:book_isbn, :quantity)
    end
  end
end
