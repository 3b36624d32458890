class ExportsController < ApplicationController
  def create
    ExportJob.perform_later(current_user.id, params.fetch(:format_name, "csv"))
    head :accepted
  end
end
