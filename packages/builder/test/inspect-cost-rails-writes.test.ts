/**
 * Rails writes as models spell them: without a receiver inside a model or concern (`update!(…)`,
 * a class method's `create!`, `find_or_create_by`, `touch`, `increment!`), `destroy_by`/`delete_by`,
 * and model methods reached through `&.`, through a chain (`Current.user.searches.record(q)`) and on
 * a service object (`Importer.new(rows).run!`). Reads (`find_by`, `where`, `exists?`), a plain
 * `increment`, a name used as a value and a bare `create!` outside a model are no writes.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { assessCosts } from '../src/inspect/cost.js';
import type { EndpointFinding } from '../src/inspect/types.js';

const project = tempProjects('rails-writes');
const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const CONTROLLER = 'app/controllers/things_controller.rb';
/** Each action's body, one line each; the action named `n` spans lines 2 + 3n … 4 + 3n of the controller. */
const ACTIONS = [
  '@api_key&.revoke!',
  'InviteCode.generate!',
  'Current.user.searches.record(params[:q])',
  'Current.family.entries.destroy_by(id: params[:ids])',
  '@post.bump!',
  'InviteCode.clear!',
  '@api_key.lookup(params[:token])',
  '@post.bump_views',
  'Importer.new(params[:rows]).run!',
];
const controller = lines('class ThingsController < ApplicationController', ...ACTIONS.flatMap((body, n) => [`  def action${n}`, `    ${body}`, '  end']), 'end');

const dir = project({
  [CONTROLLER]: controller,
  'app/models/api_key.rb': lines(
    'class ApiKey < ApplicationRecord', // 1
    '  validates :token, presence: true, on: :update', // 2
    '  def revoke!', // 3
    '    update!(revoked_at: Time.current)', // 4
    '  end', // 5
    '  def lookup(token)', // 6
    '    find_by(token: token) || where(legacy: token).first if exists?(token: token)', // 7
    '  end', // 8
    'end', // 9
  ),
  'app/models/invite_code.rb': lines(
    'class InviteCode < ApplicationRecord', // 1
    '  class << self', // 2
    '    def generate!', // 3
    '      create!.token', // 4
    '    end', // 5
    '    def clear!', // 6
    '      delete_all', // 7
    '    end', // 8
    '  end', // 9
    'end', // 10
  ),
  'app/models/search.rb': lines(
    'class Search < ApplicationRecord', // 1
    '  def self.record(query)', // 2
    '    find_or_create_by(query: query)', // 3
    '  end', // 4
    'end', // 5
  ),
  'app/models/concerns/bumpable.rb': lines(
    'module Bumpable', // 1
    '  def bump!', // 2
    '    increment!(:bumps)', // 3
    '  end', // 4
    '  def bump_views', // 5
    '    increment(:views)', // 6
    '    track(update) if save_later?', // 7
    '  end', // 8
    'end', // 9
  ),
  'app/models/post.rb': lines('class Post < ApplicationRecord', '  include Bumpable', 'end'),
  'app/services/importer.rb': lines(
    'class Importer', // 1
    '  def run!', // 2
    '    create!(@rows)', // 3
    '  end', // 4
    '  def create!(rows) = rows.map(&:to_h)', // 5
    'end', // 6
  ),
});

const endpoint = (n: number): EndpointFinding => ({
  method: 'POST', route: `/things/${n}`, framework: 'rails', location: `config/routes.rb:${n + 1}`, bodyFields: [], webhook: false, span: { file: CONTROLLER, start: 2 + 3 * n, end: 4 + 3 * n },
});
const costOf = (n: number): string => {
  const action = endpoint(n);
  const found = assessCosts([action], { root: dir, paymentCalls: [] }).get(action);
  return `${found?.level ?? ''}: ${found?.evidence[0] ?? ''}`;
};

describe('Rails writes a model makes on itself', () => {
  it('reads update!, a class method’s create! and delete_all, find_or_create_by and increment! without a receiver in a model or concern', () => {
    expect(costOf(0)).toBe('write: writes through ApiKey#revoke!(): `update!` (app/models/api_key.rb:4)');
    expect(costOf(1)).toBe('write: writes through InviteCode#generate!(): `create!` (app/models/invite_code.rb:4)');
    expect(costOf(2)).toBe('write: writes through Search#record(): `find_or_create_by` (app/models/search.rb:3)');
    expect(costOf(4)).toBe('write: writes through Bumpable#bump!(): `increment!` (app/models/concerns/bumpable.rb:3)');
    expect(costOf(5)).toBe('write: writes through InviteCode#clear!(): `delete_all` (app/models/invite_code.rb:7)');
  });

  it('takes destroy_by on an association as a write', () => {
    expect(costOf(3)).toBe('write: writes: `.destroy_by` (app/controllers/things_controller.rb:12)');
  });

  it('makes no write of find_by, where, exists?, a plain increment, a name passed as a value, or a bare create! outside a model', () => {
    expect(costOf(6)).toBe('none: no write, message or provider call seen in the handler');
    expect(costOf(7)).toBe('none: no write, message or provider call seen in the handler');
    expect(costOf(8)).toBe('none: no write, message or provider call seen in the handler');
  });
});
