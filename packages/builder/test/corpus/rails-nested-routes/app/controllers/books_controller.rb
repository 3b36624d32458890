class BooksController < ApplicationController
  include Archivable

  before_action :set_book, only: %i[update destroy restock]

  def create
    @book = Book.new(book_params)
    if @book.save
      render json: @book, status: :created
    else
      render json: { errors: @book.errors }, status: :unprocessable_entity
    end
  end

  def update
    @book.update(book_params)
    render json: @book
  end

  def destroy
    @book.destroy
    head :no_content
  end

  def restock
    @book.increment!(:stock, params.require(:quantity).to_i)
    render json: @book
  end

  # Prices a draft listing without saving it.
  def preview
    render json: PriceCalculator.new(book_params).quote
  end

  private

  def set_book
    @book = Book.find_by!(isbn: params[:isbn])
  end

  def book_params
    params.require(:book).permit(:isbn, :title, :price_cents, author_ids: [])
  end
end
