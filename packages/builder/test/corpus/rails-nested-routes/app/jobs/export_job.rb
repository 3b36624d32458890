class ExportJob < ApplicationJob
  queue_as :exports

  def perform(user_id, format_name)
    Export.create!(user_id: user_id, format_name: format_name).build!
  end
end
