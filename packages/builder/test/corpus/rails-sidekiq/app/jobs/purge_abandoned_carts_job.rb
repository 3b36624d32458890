class PurgeAbandonedCartsJob < ApplicationJob
  def perform
    Cart.abandoned.delete_all
  end
end
