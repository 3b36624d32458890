module Admin
  class UsersController < ApplicationController
    def destroy
      User.find(params[:id]).destroy
      head :no_content
    end
  end
end
