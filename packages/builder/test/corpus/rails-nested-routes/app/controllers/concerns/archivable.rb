module Archivable
  extend ActiveSupport::Concern

  def archive
    record = controller_name.classify.constantize.find_by!(isbn: params[:isbn])
    record.update!(archived_at: Time.current)
    head :no_content
  end
end
