/**
 * Duplicate cost of Rails and Laravel actions that delegate to the repository's own model or service
 * methods, one call deep: `current_user.favorite(article)`, `$user->follow($other)` through a trait,
 * Monica's `(new EnableAllCurrencies)->execute($data)`. A method the repository does not define (a gem's
 * `follow`) or a write only quoted in a comment gives no evidence.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCosts } from '../src/inspect/cost.js';
import type { EndpointFinding, MutatingMethod } from '../src/inspect/types.js';

const root = mkdtempSync(join(tmpdir(), 'inspect-cost-script-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, lines: string[]) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), lines.join('\n'));
};
const endpoint = (file: string, start: number, end: number, framework: 'rails' | 'laravel', method: MutatingMethod = 'POST'): EndpointFinding => ({
  method, route: `/x${start}`, framework, location: `routes:${start}`, bodyFields: [], webhook: false, span: { file, start, end },
});
const cost = (e: EndpointFinding) => assessCosts([e], { root, paymentCalls: [] }).get(e);

write('composer.json', ['{ "autoload": { "psr-4": { "App\\\\": "app/" } } }']);
write('app/models/user.rb', [
  'class User < ApplicationRecord', // 1
  '  acts_as_follower', // 2
  '  include Archivable', // 3
  '', // 4
  '  def favorite(article)', // 5
  '    favorites.find_or_create_by(article: article)', // 6
  '  end', // 7
  '', // 8
  '  def touch_profile(note)', // 9
  '    # profile.update!(note: note)', // 10
  '    "#{note} # profiles.destroy_all"', // 11
  '  end', // 12
  'end', // 13
]);
write('app/models/concerns/archivable.rb', [
  'module Archivable', // 1
  '  def archive_everything!', // 2
  '    update_column(:archived, true)', // 3
  '    ArchiveMailer.with(user: self).archived.deliver_later', // 4
  '  end', // 5
  'end', // 6
]);
write('app/controllers/profiles_controller.rb', [
  'class ProfilesController < ApplicationController', // 1
  '  def favorite', // 2
  '    current_user.favorite(article)', // 3
  '    render json: {}', // 4
  '  end', // 5
  '  def follow', // 6
  '    current_user.follow user', // 7
  '    render json: {}', // 8
  '  end', // 9
  '  def note', // 10
  '    current_user.touch_profile params[:note]', // 11
  '  end', // 12
  '  def archive', // 13
  '    current_user.archive_everything!', // 14
  '  end', // 15
  'end', // 16
]);

write('app/RealWorld/Follow/Followable.php', [
  '<?php', // 1
  'namespace App\\RealWorld\\Follow;', // 2
  'trait Followable', // 3
  '{', // 4
  '    public function follow(User $user)', // 5
  '    {', // 6
  '        if (! $this->isFollowing($user)) {', // 7
  '            $this->following()->attach($user);', // 8
  '        }', // 9
  '    }', // 10
  '}', // 11
]);
write('app/User.php', [
  '<?php', // 1
  'namespace App;', // 2
  'use App\\RealWorld\\Follow\\Followable;', // 3
  'class User extends Authenticatable', // 4
  '{', // 5
  '    use Notifiable, Followable;', // 6
  '}', // 7
]);
write('app/Http/Controllers/Api/ProfileController.php', [
  '<?php', // 1
  'namespace App\\Http\\Controllers\\Api;', // 2
  'class ProfileController extends ApiController', // 3
  '{', // 4
  '    public function follow(User $user)', // 5
  '    {', // 6
  '        $authenticatedUser = auth()->user();', // 7
  '        $authenticatedUser->follow($user);', // 8
  '        return $this->respondWithTransformer($user);', // 9
  '    }', // 10
  '}', // 11
]);

write('app/Domains/Settings/Services/EnableAllCurrencies.php', [
  '<?php', // 1
  'namespace App\\Domains\\Settings\\Services;', // 2
  'class EnableAllCurrencies extends BaseService', // 3
  '{', // 4
  '    public function execute(array $data): void', // 5
  '    {', // 6
  '        $this->validateRules($data);', // 7
  "        $this->account->currencies()->update(['active' => true]);", // 8
  '    }', // 9
  '}', // 10
]);
write('app/Domains/Settings/Services/CreateVault.php', [
  '<?php', // 1
  'namespace App\\Domains\\Settings\\Services;', // 2
  'class CreateVault extends BaseService', // 3
  '{', // 4
  '    public function execute(array $data): Vault', // 5
  '    {', // 6
  '        $this->validateRules($data);', // 7
  '        $this->vault = Vault::create([', // 8
  "            'name' => $data['name'],", // 9
  '        ]);', // 10
  '        return $this->vault;', // 11
  '    }', // 12
  '}', // 13
]);
// Two action classes share a short name: the one the controller imports is read.
write('app/Domains/Contact/Services/UpdateReligion.php', [
  '<?php', // 1
  'namespace App\\Domains\\Contact\\Services;', // 2
  'class UpdateReligion', // 3
  '{', // 4
  '    public function execute(array $data)', // 5
  '    {', // 6
  '        $this->contact->save();', // 7
  '    }', // 8
  '}', // 9
]);
write('app/Domains/Settings/Services/UpdateReligion.php', [
  '<?php', // 1
  'namespace App\\Domains\\Settings\\Services;', // 2
  'class UpdateReligion', // 3
  '{', // 4
  '    public function execute(array $data)', // 5
  '    {', // 6
  '        $this->religion->update($data);', // 7
  '    }', // 8
  '}', // 9
]);
write('app/Domains/Settings/Web/Controllers/CurrencyController.php', [
  '<?php', // 1
  'namespace App\\Domains\\Settings\\Web\\Controllers;', // 2
  'use App\\Domains\\Settings\\Services\\EnableAllCurrencies;', // 3
  'use App\\Domains\\Settings\\Services\\CreateVault;', // 4
  'use App\\Domains\\Settings\\Services\\UpdateReligion;', // 5
  'class CurrencyController extends Controller', // 6
  '{', // 7
  '    public function store(Request $request)', // 8
  '    {', // 9
  '        (new EnableAllCurrencies)->execute($request->all());', // 10
  '        return response()->json([], 201);', // 11
  '    }', // 12
  '    public function vault(Request $request)', // 13
  '    {', // 14
  '        $vault = (new CreateVault)->execute($request->all());', // 15
  '        return response()->json([], 201);', // 16
  '    }', // 17
  '    public function religion(Request $request, UpdateReligion $action)', // 18
  '    {', // 19
  '        $action->execute($request->all());', // 20
  '    }', // 21
  '}', // 22
]);

describe('Rails actions delegating to model methods', () => {
  it("reads the write in the User model's method that current_user.favorite(...) calls", () => {
    const found = cost(endpoint('app/controllers/profiles_controller.rb', 2, 5, 'rails'));
    expect(found?.level).toBe('write');
    expect(found?.evidence.join(' ')).toContain('(app/models/user.rb:6)');
  });

  it("follows a call without parentheses into a concern the model includes, and ranks its job over its write", () => {
    const found = cost(endpoint('app/controllers/profiles_controller.rb', 13, 15, 'rails'));
    expect(found?.level).toBe('external');
    expect(found?.evidence.join(' ')).toContain('(app/models/concerns/archivable.rb:4)');
  });

  it('invents nothing for a gem method the model lacks or a write quoted in a comment or string, while a real one counts', () => {
    expect(cost(endpoint('app/controllers/profiles_controller.rb', 6, 9, 'rails'))?.level).toBe('none');
    expect(cost(endpoint('app/controllers/profiles_controller.rb', 10, 12, 'rails'))?.level).toBe('none');
    expect(cost(endpoint('app/controllers/profiles_controller.rb', 2, 5, 'rails'))?.level).toBe('write');
  });
});

describe('Laravel actions delegating to models, traits and action classes', () => {
  it("reads a trait's follow() for $authenticatedUser->follow($user), not the controller's own follow action", () => {
    const found = cost(endpoint('app/Http/Controllers/Api/ProfileController.php', 5, 10, 'laravel'));
    expect(found?.level).toBe('write');
    expect(found?.evidence.join(' ')).toContain('(app/RealWorld/Follow/Followable.php:8)');
  });

  it('follows (new EnableAllCurrencies)->execute(...) into the action class', () => {
    const found = cost(endpoint('app/Domains/Settings/Web/Controllers/CurrencyController.php', 8, 12, 'laravel'));
    expect(found?.level).toBe('write');
    expect(found?.evidence.join(' ')).toContain('(app/Domains/Settings/Services/EnableAllCurrencies.php:8)');
  });

  it('gives the write inside a write-named action class as evidence rather than its constructor', () => {
    const found = cost(endpoint('app/Domains/Settings/Web/Controllers/CurrencyController.php', 13, 17, 'laravel'));
    expect(found?.level).toBe('write');
    expect(found?.evidence.join(' ')).toContain('(app/Domains/Settings/Services/CreateVault.php:8)');
  });

  it('reads the injected action class the controller imports when two share its short name', () => {
    const found = cost(endpoint('app/Domains/Settings/Web/Controllers/CurrencyController.php', 18, 21, 'laravel'));
    expect(found?.level).toBe('write');
    expect(found?.evidence.join(' ')).toContain('(app/Domains/Settings/Services/UpdateReligion.php:7)');
  });
});
