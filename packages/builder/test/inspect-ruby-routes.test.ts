/**
 * Rails `config/routes.rb` read as the router builds it: every mutating route with its full path
 * as served and the controller action answering it, through scope, namespace, nested, member and
 * collection blocks, singular resources, `only`/`except` spellings, verb shorthands and Devise.
 */
import { describe, expect, it } from 'vitest';
import { railsRoutes } from '../src/inspect/patterns/ruby-routes.js';
import { scanRuby } from '../src/inspect/patterns/ruby.js';

const draw = (...lines: string[]): string => ['Rails.application.routes.draw do', ...lines.map((l) => `  ${l}`), 'end', ''].join('\n');
const routes = (text: string): string[] => railsRoutes('config/routes.rb', text).map((e) => `${e.method} ${e.route} ${e.handler ?? '-'}`);

describe('Rails routes: the block stack (D1)', () => {
  it('scope by symbol, string and path: adds the path; scope module: changes the controller only', () => {
    expect(routes(draw(
      'scope :api do',
      '  resources :orders, only: [:create]',
      'end',
      "scope '/v2' do",
      "  scope path: 'shop', module: 'storefront' do",
      '    resources :carts, only: [:create]',
      '  end',
      'end',
    ))).toEqual(['POST /api/orders orders#create', 'POST /v2/shop/carts storefront/carts#create']);
  });

  it('namespace: path and controller module, nested namespaces and a namespace path: option', () => {
    expect(routes(draw(
      'namespace :api do',
      '  namespace :v1 do',
      "    post 'auth/login', to: 'auth#login'",
      '    resources :charges, only: :create',
      '  end',
      'end',
      "namespace :admin, path: 'backoffice' do",
      '  resources :users, only: :destroy',
      'end',
    ))).toEqual(['POST /api/v1/auth/login api/v1/auth#login', 'POST /api/v1/charges api/v1/charges#create', 'DELETE /backoffice/users/:id admin/users#destroy']);
  });

  it('nested resources take the parent id; member, collection and on: place a verb; a bare verb in resources is nested', () => {
    expect(routes(draw(
      'resources :orders, only: [:create] do',
      '  resources :refunds, only: [:create]',
      '  member do',
      '    post :cancel',
      '  end',
      '  collection do',
      '    post :bulk',
      '  end',
      '  post :export, on: :collection',
      '  delete :hold, on: :member',
      '  post :notes',
      'end',
    ))).toEqual([
      'POST /orders orders#create',
      'POST /orders/:order_id/refunds refunds#create',
      'POST /orders/:id/cancel orders#cancel',
      'POST /orders/bulk orders#bulk',
      'POST /orders/export orders#export',
      'DELETE /orders/:id/hold orders#hold',
      'POST /orders/:order_id/notes orders#notes',
    ]);
  });

  it('shallow: true keeps collection routes under the parent and moves member routes out (namespace path kept)', () => {
    expect(routes(draw(
      'namespace :billing do',
      '  resources :invoices, only: [], shallow: true do',
      '    resources :payments, only: %i[create update destroy] do',
      '      resources :allocations, only: :create',
      '    end',
      '  end',
      'end',
    ))).toEqual([
      'POST /billing/invoices/:invoice_id/payments billing/payments#create',
      'PATCH /billing/payments/:id billing/payments#update',
      'PUT /billing/payments/:id billing/payments#update',
      'DELETE /billing/payments/:id billing/payments#destroy',
      'POST /billing/payments/:payment_id/allocations billing/allocations#create',
    ]);
  });

  it('constraints, defaults, if and direct blocks add no path; a concern adds its routes only where it is used', () => {
    expect(routes(draw(
      'concern :archivable do',
      '  post :archive, on: :member',
      'end',
      "constraints subdomain: 'api' do",
      '  defaults format: :json do',
      '    resources :posts, only: :create, concerns: :archivable',
      '    resources :notes, only: [] do',
      '      concerns :archivable',
      '    end',
      '  end',
      'end',
      'if Rails.env.test?',
      "  post 'test/reset', to: 'test#reset'",
      'end',
      'direct :entry do |entry, options|',
      '  if entry.new_record?',
      '    route_for entry.name, options',
      '  else',
      '    route_for entry.name, entry, options',
      '  end',
      'end',
      'resources :tags, only: :create',
    ))).toEqual([
      'POST /posts posts#create',
      'POST /posts/:id/archive posts#archive',
      'POST /notes/:id/archive notes#archive',
      'POST /test/reset test#reset',
      'POST /tags tags#create',
    ]);
  });

  it('a statement over several lines and a commented-out route', () => {
    expect(routes(draw(
      'resources :orders,',
      '  only: %i[create update],',
      "  path: 'purchases'",
      "# resources :legacy, only: :create",
      "post 'ping' # post 'pong'",
    ))).toEqual(['POST /purchases orders#create', 'PATCH /purchases/:id orders#update', 'PUT /purchases/:id orders#update', 'POST /ping -']);
  });
});

describe('Rails routes: singular resources (D2)', () => {
  it('resource :account has no :id, is served by the plural controller, and nests without :account_id', () => {
    expect(routes(draw(
      'resource :account, only: %i[create update destroy] do',
      '  resources :api_keys, only: :create',
      '  post :verify',
      'end',
      "resource :mfa, controller: 'mfa', only: [:create]",
      'resource :category, only: :update, controller: :transaction_categories',
    ))).toEqual([
      'POST /account accounts#create',
      'PATCH /account accounts#update',
      'PUT /account accounts#update',
      'DELETE /account accounts#destroy',
      'POST /account/api_keys api_keys#create',
      'POST /account/verify accounts#verify',
      'POST /mfa mfa#create',
      'PATCH /category transaction_categories#update',
      'PUT /category transaction_categories#update',
    ]);
  });
});

describe('Rails routes: only and except in every spelling (D3)', () => {
  it('a bare symbol, %i[], an empty list, except: with a list or a symbol', () => {
    expect(routes(draw(
      'resources :a, only: :create',
      'resources :b, only: %i[index destroy]',
      'resources :c, only: []',
      'resources :d, except: [:create, :update]',
      'resources :e, except: :destroy',
      'resources :reports, only: :index',
    ))).toEqual([
      'POST /a a#create',
      'DELETE /b/:id b#destroy',
      'DELETE /d/:id d#destroy',
      'POST /e e#create', 'PATCH /e/:id e#update', 'PUT /e/:id e#update',
    ]);
  });
});

describe('Rails routes: verbs (D4)', () => {
  it('symbols, to:, => targets, the slash shorthand, match with via: a list, a symbol or :all', () => {
    expect(routes(draw(
      'post :ping',
      "patch 'profile', to: 'users#update'",
      "post 'auth/login' => 'sessions#create'",
      "post 'auth/logout'",
      "match 'hooks/paypal', to: 'hooks#paypal', via: [:post, :put]",
      "match 'search', to: 'search#index', via: :get",
      "match 'rpc', to: 'rpc#call', via: :all",
      "controller :sessions do",
      "  delete 'logout' => :destroy",
      'end',
    ))).toEqual([
      'POST /ping -',
      'PATCH /profile users#update',
      'POST /auth/login sessions#create',
      'POST /auth/logout auth#logout',
      'POST /hooks/paypal hooks#paypal', 'PUT /hooks/paypal hooks#paypal',
      'POST /rpc rpc#call', 'PUT /rpc rpc#call', 'PATCH /rpc rpc#call', 'DELETE /rpc rpc#call',
      'DELETE /logout sessions#destroy',
    ]);
  });
});

describe('Rails routes: webhooks in a namespace (D5)', () => {
  it('namespace :webhooks do post "stripe" end is POST /webhooks/stripe to webhooks#stripe, flagged by its path', () => {
    const found = scanRuby('config/routes.rb', draw('namespace :webhooks do', '  post "stripe"', '  post "plaid_eu"', 'end')).findings.endpoints;
    expect(found.map((e) => ({ route: e.route, handler: e.handler, webhook: e.webhook }))).toEqual([
      { route: '/webhooks/stripe', handler: 'webhooks#stripe', webhook: true },
      { route: '/webhooks/plaid_eu', handler: 'webhooks#plaid_eu', webhook: true },
    ]);
  });
});

describe('Rails routes: several resources, param:, path: (D6)', () => {
  it('resources :photos, :videos; param: :slug on member and nested routes; path: renames the segment', () => {
    expect(routes(draw(
      'resources :photos, :videos, only: [:create]',
      'resources :articles, param: :slug, only: [:update] do',
      '  resources :comments, only: :create',
      'end',
      "resources :carts, only: [:create], path: 'basket'",
    ))).toEqual([
      'POST /photos photos#create',
      'POST /videos videos#create',
      'PATCH /articles/:slug articles#update',
      'PUT /articles/:slug articles#update',
      'POST /articles/:article_slug/comments comments#create',
      'POST /basket carts#create',
    ]);
  });
});

describe('Rails routes: Devise', () => {
  it('devise_for reports only the controllers the app overrides, with path_names, as routes kept if the app defines the action', () => {
    expect(routes(draw(
      'scope :api do',
      '  devise_for :users, controllers: { sessions: :sessions },',
      '                     path_names: { sign_in: :login }',
      'end',
      'devise_for :admins',
    ))).toEqual(['POST /api/users/login sessions#create', 'DELETE /api/users/sign_out sessions#destroy']);
  });
});
