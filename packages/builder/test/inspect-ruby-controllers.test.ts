/**
 * Rails routes linked to their controller actions (D7): the span points into
 * `app/controllers/<namespace>/<name>_controller.rb`, so the duplicate cost is read from the
 * action's body and the body fields come from strong parameters; an action the app does not
 * define keeps "defined elsewhere", and a Devise route is kept only when the app defines it.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { paramsFields } from '../src/inspect/patterns/ruby-controllers.js';


const project = tempProjects('rails');

const GEMFILE = "source 'https://rubygems.org'\ngem 'rails', '~> 7.2'\ngem 'stripe'\n";

describe('Rails routes linked to controller actions (D7)', () => {
  it('reads cost and fields from the action in app/controllers/<namespace>/<name>_controller.rb', async () => {
    const dir = project({
      Gemfile: GEMFILE,
      'config/routes.rb': [
        'Rails.application.routes.draw do',
        '  namespace :admin do',
        '    resources :refunds, only: %i[create update destroy] do',
        '      post :approve, on: :member',
        '    end',
        '  end',
        '  resources :exports, only: :create',
        '  resources :imports, only: :create',
        'end',
        '',
      ].join('\n'),
      'app/controllers/admin/refunds_controller.rb': [
        'module Admin',
        '  class RefundsController < ApplicationController',
        '    def create',
        '      Stripe::Refund.create({ payment_intent: refund_params[:payment_intent_id], amount: refund_params[:amount] })',
        '      head :created',
        '    end',
        '',
        '    def update',
        '      refund = Refund.find(params[:id])',
        '      if refund.update(note: params[:note])',
        '        head :ok',
        '      end',
        '    end',
        '',
        '    def destroy',
        '      Refund.find(params[:id]).destroy',
        '      head :no_content',
        '    end',
        '',
        '    private',
        '',
        '    def approve',
        '      head :ok',
        '    end',
        '',
        '    def refund_params',
        '      params.require(:refund).permit(:payment_intent_id, :amount, metadata: {})',
        '    end',
        '  end',
        'end',
        '',
      ].join('\n'),
      'app/controllers/exports_controller.rb': 'class ExportsController < ApplicationController\n  def create\n    ExportJob.perform_later(params[:kind])\n    head :accepted\n  end\nend\n',
    });
    const inspection = await inspectCodebase(dir);
    const byRoute = new Map(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e]));
    expect(byRoute.get('POST /admin/refunds')).toMatchObject({
      handler: 'admin/refunds#create', bodyFields: ['payment_intent_id', 'amount', 'metadata'],
      span: { file: 'app/controllers/admin/refunds_controller.rb', start: 3, end: 6 },
      cost: { level: 'money' },
    });
    // `params[:id]` is the path segment, `params[:note]` a body field; `.update(` is a write.
    expect(byRoute.get('PATCH /admin/refunds/:id')).toMatchObject({ bodyFields: ['note'], cost: { level: 'write' } });
    // ActiveRecord without parentheses: `.destroy` is a write, not "no write seen".
    expect(byRoute.get('DELETE /admin/refunds/:id')?.cost).toMatchObject({ level: 'write', evidence: ['writes: `.destroy` (app/controllers/admin/refunds_controller.rb:16)'] });
    expect(byRoute.get('POST /exports')).toMatchObject({ bodyFields: ['kind'], cost: { level: 'external' } });
    // A private method is no action, a controller that does not exist is no span: both stay "defined elsewhere".
    for (const route of ['POST /admin/refunds/:id/approve', 'POST /imports']) {
      expect(byRoute.get(route)?.span).toBeUndefined();
      expect(byRoute.get(route)?.cost).toMatchObject({ level: 'write', evidence: ['the handler is defined elsewhere; assumed to write'] });
    }
  });

  it('Devise: the app’s own sessions controller answers POST /api/users/login; the actions it inherits are not invented', async () => {
    const dir = project({
      Gemfile: GEMFILE,
      'config/routes.rb': "Rails.application.routes.draw do\n  scope :api do\n    devise_for :users, controllers: { sessions: :sessions, registrations: 'users/registrations' },\n                       path_names: { sign_in: :login }\n  end\nend\n",
      'app/controllers/sessions_controller.rb': 'class SessionsController < Devise::SessionsController\n  def create\n    user = User.find_by_email(sign_in_params[:email])\n    render json: user\n  end\nend\n',
      // A TypeScript file makes the inspector copy every endpoint before linking: the Devise mark must survive that.
      'web/app.ts': "export const ping = (): string => 'pong';\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route} ${e.handler ?? ''}`)).toEqual(['POST /api/users/login sessions#create']);
    expect(inspection.endpoints[0]).toMatchObject({ span: { file: 'app/controllers/sessions_controller.rb', start: 2, end: 5 }, cost: { level: 'auth' } });
  });
});

describe('strong parameters', () => {
  it('permit keys at the top level only, params.expect, and single reads apart from them', () => {
    expect(paramsFields("params.require(:user).permit(:email, 'name', tag_ids: [], address: [:city, :zip])")).toEqual({ permitted: ['email', 'name', 'tag_ids', 'address'], read: [] });
    expect(paramsFields('params.expect(order: [:sku, :quantity, lines: [[:id]]])')).toEqual({ permitted: ['sku', 'quantity', 'lines'], read: [] });
    expect(paramsFields('x = params[:slug]\ny = params.fetch(:page, 1)\nz = params.require(:token)')).toEqual({ permitted: [], read: ['slug', 'page', 'token'] });
  });
});
