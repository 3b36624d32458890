Sidekiq.configure_server do |config|
  config.on(:startup) do
    Sidekiq::Cron::Job.load_from_hash(YAML.load_file(Rails.root.join("config/schedule.yml")))
    Sidekiq::Cron::Job.create(name: "purge carts", cron: "0 4 * * *", class: "PurgeAbandonedCartsJob")
  end
end
