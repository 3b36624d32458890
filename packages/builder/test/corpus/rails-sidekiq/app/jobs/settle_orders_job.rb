class SettleOrdersJob < ApplicationJob
  queue_as :scheduled

  def perform
    Order.captured.where(settled_at: nil).find_each(&:settle!)
  end
end
