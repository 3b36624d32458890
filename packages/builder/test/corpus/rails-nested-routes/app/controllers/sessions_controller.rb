class SessionsController < ApplicationController
  def create
    user = User.find_by(email: params[:email])
    if user&.authenticate(params[:password])
      render json: { token: user.issue_token }
    else
      head :unauthorized
    end
  end
end
