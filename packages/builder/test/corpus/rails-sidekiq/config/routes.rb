Rails.application.routes.draw do
  resources :orders, only: [:create, :show]
  post "/webhooks/stripe", to: "webhooks#stripe"
end
