Rails.application.routes.draw do
  # Back-office archiving, added to each resource that lists the concern.
  concern :archivable do
    post :archive, on: :member
  end

  scope "/api", defaults: { format: :json } do
    scope module: :storefront do
      resource :basket, only: %i[show update destroy] do
        resources :lines, only: %i[create destroy]
      end
      resources :checkouts, only: :create
    end

    resources :books, param: :isbn, except: %i[index show], concerns: :archivable do
      member do
        put :restock
      end
      post :preview, on: :collection
    end

    post "session" => "sessions#create"
    match "exports", to: "exports#create", via: %i[post put]
  end

  namespace :billing do
    resources :invoices, only: %i[index create], shallow: true do
      resources :payments, only: %i[create destroy]
      collection do
        post :void_all
      end
    end
  end

  namespace :webhooks do
    post "stripe"
  end

  constraints subdomain: "admin" do
    namespace :admin, path: "backoffice" do
      resources :users, :vendors, only: :destroy
    end
  end

  # Retired with the v1 storefront:
  # resources :wishlists, only: :create
  # post "gift_cards/redeem", to: "gift_cards#redeem"
end
