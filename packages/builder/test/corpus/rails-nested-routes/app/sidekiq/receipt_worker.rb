module Billing
  class ReceiptWorker
    include Sidekiq::Job
    sidekiq_options queue: :mailers

    def perform(payment_intent_id)
      ReceiptMailer.with(payment_intent_id: payment_intent_id).paid.deliver_now
    end
  end
end
