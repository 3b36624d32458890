// Laravel actions a controller inherits: from a trait it uses (or a trait of that trait) and from a
// base controller of the app, found as PHP finds a method, so that their body fields and duplicate
// cost are read as for an action the controller declares. A trait from vendor/ stays unread.
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import type { EndpointFinding } from '../src/inspect/types.js';

const project = tempProjects('php-inherited', {
  'composer.json': '{"require":{"laravel/framework":"^11.0"},"autoload":{"psr-4":{"App\\\\":"app/"}}}',
});

const php = (...lines: string[]): string => ['<?php', ...lines].join('\n');
const described = (endpoints: readonly EndpointFinding[]): string[] => endpoints.map((e) =>
  `${e.method} ${e.route} ${e.span ? `${e.span.file}:${e.span.start}` : 'elsewhere'} [${e.bodyFields.join(',')}] ${e.cost?.level ?? ''}: ${e.cost?.evidence[0] ?? ''}`);

describe('Laravel actions inherited by a controller', () => {
  it('follows a trait (and its own trait) and a base controller of the app; a vendor trait stays "defined elsewhere"', async () => {
    const dir = project({
      'routes/api.php': php(
        'use App\\Http\\Controllers\\PostController;',
        'use App\\Http\\Controllers\\Auth\\ForgotPasswordController;',
        "Route::apiResource('posts', PostController::class)->only(['store', 'update', 'destroy']);",
        "Route::post('posts/{post}/archive', [PostController::class, 'archive']);",
        "Route::post('password/email', [ForgotPasswordController::class, 'sendResetLinkEmail']);",
      ),
      'app/Http/Controllers/PostController.php': php(
        'namespace App\\Http\\Controllers;',
        'use App\\Http\\Controllers\\Concerns\\DeletesRecords;',
        'class PostController extends CrudController',
        '{',
        '    use DeletesRecords;',
        '    public function archive(int $id)',
        '    {',
        '        return Post::findOrFail($id)->update([\'archived\' => true]);',
        '    }',
        '}',
      ),
      'app/Http/Controllers/Concerns/DeletesRecords.php': php(
        'namespace App\\Http\\Controllers\\Concerns;',
        'use Illuminate\\Support\\Facades\\Validator;',
        'trait DeletesRecords',
        '{',
        '    use LogsDeletions;',
        '    public function destroy(mixed $id)',
        '    {',
        "        Validator::make(['id' => $id], ['id' => 'int'])->validate();",
        '        $this->model()::findOrFail($id)->delete();',
        '        return response()->noContent();',
        '    }',
        '}',
      ),
      'app/Http/Controllers/Concerns/LogsDeletions.php': php(
        'namespace App\\Http\\Controllers\\Concerns;',
        'use Illuminate\\Http\\Request;',
        'trait LogsDeletions',
        '{',
        '    public function update(Request $request, int $id)',
        '    {',
        "        $data = $request->validate(['title' => 'string', 'tags.*' => 'string']);",
        '        Post::whereKey($id)->update($data);',
        '    }',
        '}',
      ),
      'app/Http/Controllers/CrudController.php': php(
        'namespace App\\Http\\Controllers;',
        'use App\\Http\\Requests\\StorePostRequest;',
        'abstract class CrudController extends Controller',
        '{',
        '    abstract protected function model();',
        '    public function store(StorePostRequest $request)',
        '    {',
        '        return $this->model()::create($request->validated());',
        '    }',
        '}',
      ),
      'app/Http/Controllers/Controller.php': php(
        'namespace App\\Http\\Controllers;',
        'use Illuminate\\Routing\\Controller as BaseController;',
        'abstract class Controller extends BaseController {}',
      ),
      'app/Http/Requests/StorePostRequest.php': php(
        'namespace App\\Http\\Requests;',
        'class StorePostRequest extends \\Illuminate\\Foundation\\Http\\FormRequest',
        '{',
        "    public function rules(): array { return ['title' => 'required', 'body' => 'required']; }",
        '}',
      ),
      'app/Http/Controllers/Auth/ForgotPasswordController.php': php(
        'namespace App\\Http\\Controllers\\Auth;',
        'use App\\Http\\Controllers\\Controller;',
        'use Illuminate\\Foundation\\Auth\\SendsPasswordResetEmails;',
        'class ForgotPasswordController extends Controller',
        '{',
        '    use SendsPasswordResetEmails;',
        '}',
      ),
    });
    expect(described((await inspectCodebase(dir)).endpoints)).toEqual([
      'POST /api/posts app/Http/Controllers/CrudController.php:7 [title,body] write: writes: `::create(` (app/Http/Controllers/CrudController.php:9)',
      'PUT /api/posts/{post} app/Http/Controllers/Concerns/LogsDeletions.php:6 [title,tags] write: writes: `->update(` (app/Http/Controllers/Concerns/LogsDeletions.php:9)',
      'PATCH /api/posts/{post} app/Http/Controllers/Concerns/LogsDeletions.php:6 [title,tags] write: writes: `->update(` (app/Http/Controllers/Concerns/LogsDeletions.php:9)',
      'DELETE /api/posts/{post} app/Http/Controllers/Concerns/DeletesRecords.php:7 [] write: writes: `->delete(` (app/Http/Controllers/Concerns/DeletesRecords.php:10)',
      'POST /api/posts/{post}/archive app/Http/Controllers/PostController.php:7 [] write: writes: `->update(` (app/Http/Controllers/PostController.php:9)',
      'POST /api/password/email elsewhere [] write: the handler is defined elsewhere; assumed to write',
    ]);
  });

  it("prefers the controller's own method to its trait's, and its trait's to its parent's", async () => {
    const dir = project({
      'routes/api.php': php("Route::apiResource('tags', \\App\\Http\\Controllers\\TagController::class)->only(['store', 'destroy']);"),
      'app/Http/Controllers/TagController.php': php(
        'namespace App\\Http\\Controllers;',
        'class TagController extends BaseController',
        '{',
        '    use StoresTags;',
        '    public function destroy(Tag $tag) { $tag->delete(); }',
        '}',
      ),
      'app/Http/Controllers/StoresTags.php': php(
        'namespace App\\Http\\Controllers;',
        'trait StoresTags',
        '{',
        "    public function destroy(Tag $tag) { $tag->forceDelete(); }",
        "    public function store(Request $request) { return Tag::create($request->validate(['name' => 'required'])); }",
        '}',
      ),
      'app/Http/Controllers/BaseController.php': php(
        'namespace App\\Http\\Controllers;',
        'class BaseController',
        '{',
        "    public function store(Request $request) { return Tag::create($request->validate(['label' => 'required'])); }",
        '}',
      ),
    });
    expect((await inspectCodebase(dir)).endpoints.map((e) => `${e.method} ${e.span?.file ?? ''}:${e.span?.start ?? ''} [${e.bodyFields.join(',')}]`)).toEqual([
      'POST app/Http/Controllers/StoresTags.php:6 [name]',
      'DELETE app/Http/Controllers/TagController.php:6 []',
    ]);
  });
});
