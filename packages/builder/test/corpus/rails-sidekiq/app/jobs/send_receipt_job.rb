class SendReceiptJob < ApplicationJob
  queue_as :mailers
  retry_on Net::OpenTimeout, wait: 5.seconds, attempts: 3

  def perform(order_id)
    OrderMailer.receipt(Order.find(order_id)).deliver_now
  end
end
