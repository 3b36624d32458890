class SyncInventoryJob
  include Sidekiq::Worker
  sidekiq_options lock: :until_executed

  def perform
    Inventory.sync_from_warehouse!
  end
end
