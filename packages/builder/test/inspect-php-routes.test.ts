// Laravel routes as served: groups nested to any depth, resources, match/any, the route file's own
// prefix (bootstrap/app.php, RouteServiceProvider, a required file) and actions linked to their
// controller methods, whose body fields and provider calls then describe the endpoint.
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { maskCode } from '../src/inspect/patterns/code-mask.js';
import { laravelRoutes, resourceWildcard } from '../src/inspect/patterns/php-routes.js';
import type { EndpointFinding } from '../src/inspect/types.js';


const project = tempProjects('php');

const php = (...lines: string[]): string => ['<?php', ...lines].join('\n');
const routesOf = (relPath: string, text: string): string[] =>
  laravelRoutes(relPath, maskCode(text, 'php')).routes.map((r) => `${r.method} ${r.path}${r.handler ? ` ${r.handler}` : ''}`);
const shown = (endpoints: readonly EndpointFinding[]): string[] => endpoints.map((e) => `${e.method} ${e.route}`);

describe('Laravel route files', () => {
  it('joins the prefixes of nested groups in every form: prefix()->group, group([...]), middleware()->prefix(), controller()->group', () => {
    const text = php(
      "Route::prefix('v1')->group(function () {",
      "    Route::post('orders', [OrderController::class, 'store']);",
      "    Route::group(['prefix' => 'admin', 'middleware' => ['auth']], function () {",
      "        Route::middleware('can:refund')->prefix('/refunds/')->group(function () {",
      "            Route::delete('{refund}', [RefundController::class, 'destroy']);",
      '        });',
      '    });',
      "    Route::controller(CartController::class)->prefix('carts')->group(function () {",
      "        Route::post('', 'store');",
      "        Route::put('/', 'replace');",
      '    });',
      '});',
      "Route::post('after', AfterController::class);",
    );
    expect(routesOf('routes/web.php', text)).toEqual([
      'POST /v1/orders OrderController@store',
      'DELETE /v1/admin/refunds/{refund} RefundController@destroy',
      'POST /v1/carts CartController@store',
      'PUT /v1/carts CartController@replace',
      'POST /after AfterController@__invoke',
    ]);
  });

  it('expands resources: store, update (PUT and PATCH) and destroy, with only/except/parameters, nesting and the options array', () => {
    const text = php(
      'use App\\Http\\Controllers\\PhotoController;',
      "Route::resource('photos', PhotoController::class);",
      "Route::apiResource('recurring-invoices', InvoiceController::class)->only(['store', 'destroy']);",
      "Route::resource('categories', CategoryController::class)->except(['update', 'destroy'])->parameters(['categories' => 'cat']);",
      "Route::resource('photos.comments', CommentController::class)->only('update');",
      "Route::resource('articles/{article}/comments', 'CommentController', ['only' => ['store']]);",
      "Route::apiResources(['tags' => TagController::class]);",
    );
    expect(routesOf('routes/web.php', text)).toEqual([
      'POST /photos App\\Http\\Controllers\\PhotoController@store',
      'PUT /photos/{photo} App\\Http\\Controllers\\PhotoController@update',
      'PATCH /photos/{photo} App\\Http\\Controllers\\PhotoController@update',
      'DELETE /photos/{photo} App\\Http\\Controllers\\PhotoController@destroy',
      'POST /recurring-invoices InvoiceController@store',
      'DELETE /recurring-invoices/{recurring_invoice} InvoiceController@destroy',
      'POST /categories CategoryController@store',
      'PUT /photos/{photo}/comments/{comment} CommentController@update',
      'PATCH /photos/{photo}/comments/{comment} CommentController@update',
      'POST /articles/{article}/comments CommentController@store',
      'POST /tags TagController@store',
      'PUT /tags/{tag} TagController@update',
      'PATCH /tags/{tag} TagController@update',
      'DELETE /tags/{tag} TagController@destroy',
    ]);
  });

  it("names a resource's parameter by doctrine/inflector's singular rules", () => {
    expect(['photos', 'categories', 'addresses', 'statuses', 'taxes', 'people', 'payment-methods', 'expenses', 'data'].map(resourceWildcard))
      .toEqual(['photo', 'category', 'address', 'status', 'tax', 'person', 'payment_method', 'expense', 'data']);
  });

  it('reads match() methods, an empty or "/" path, a path joined with a runtime value, string actions under a namespace; commented routes are none', () => {
    const text = php(
      "Route::group(['namespace' => 'Api'], function () {",
      "    Route::match(['get', 'put', 'patch'], 'profile', 'ProfileController@update');",
      "    Route::post('', 'HomeController@store');",
      '});',
      "Route::post('/', [HomeController::class, 'post']);",
      "Route::post('/telegram/webhook/'.config('services.telegram.webhook'), [TelegramController::class, 'store']);",
      "// Route::post('old', [OldController::class, 'store']);",
      "/* Route::delete('older', [OldController::class, 'destroy']); */",
    );
    expect(routesOf('routes/web.php', text)).toEqual([
      'PUT /profile Api\\ProfileController@update',
      'PATCH /profile Api\\ProfileController@update',
      'POST / Api\\HomeController@store',
      'POST / HomeController@post',
      'POST /telegram/webhook/{config} TelegramController@store',
    ]);
  });
});

const ORDER_CONTROLLER = php(
  'namespace App\\Http\\Controllers;',
  'use App\\Http\\Requests\\StoreRefundRequest;',
  'use Illuminate\\Http\\Request;',
  'use Stripe\\PaymentIntent;',
  'class OrderController extends Controller',
  '{',
  '    public function store(Request $request)',
  '    {',
  "        $data = $request->validate(['amount' => 'required|integer', 'items.*.sku' => 'required']);",
  "        return PaymentIntent::create(['amount' => $data['amount'], 'currency' => $request->input('currency')]);",
  '    }',
  '',
  '    public function refund(StoreRefundRequest $request, $order)',
  '    {',
  "        return $request->only(['note']);",
  '    }',
  '}',
);

describe('Laravel routes in a project', () => {
  it("serves routes/api.php under bootstrap/app.php's apiPrefix, links actions to controller methods and reads their body fields", async () => {
    const dir = project({
      'composer.json': '{"require":{"laravel/framework":"^11.0","stripe/stripe-php":"^13"},"autoload":{"psr-4":{"App\\\\":"app/"}}}',
      'bootstrap/app.php': php(
        'return Application::configure(basePath: dirname(__DIR__))',
        "    ->withRouting(web: __DIR__.'/../routes/web.php', api: __DIR__.'/../routes/api.php', apiPrefix: 'v2')",
        '    ->create();',
      ),
      'routes/api.php': php(
        'use App\\Http\\Controllers\\OrderController;',
        "Route::middleware('auth:sanctum')->group(function () {",
        "    Route::post('orders', [OrderController::class, 'store']);",
        "    Route::post('orders/{order}/refunds', [OrderController::class, 'refund']);",
        "    require __DIR__.'/billing.php';",
        '});',
      ),
      'routes/billing.php': php("Route::any('billing/sync', [\\App\\Http\\Controllers\\OrderController::class, 'store']);"),
      'routes/web.php': php("Route::post('contact', function (Request $request) {", "    return Mail::send($request->input('email'));", '});'),
      'app/Http/Controllers/OrderController.php': ORDER_CONTROLLER,
      'app/Http/Requests/StoreRefundRequest.php': php(
        'namespace App\\Http\\Requests;',
        'class StoreRefundRequest extends FormRequest',
        '{',
        '    public function rules(): array',
        '    {',
        "        return ['amount' => ['required', 'integer'], 'reason' => 'string', 'lines.*.id' => 'int'];",
        '    }',
        '}',
      ),
    });
    const inspection = await inspectCodebase(dir);
    expect(shown(inspection.endpoints)).toEqual(['POST /v2/orders', 'POST /v2/orders/{order}/refunds', 'POST /v2/billing/sync', 'POST /contact']);
    const [store, refund, sync, contact] = inspection.endpoints;
    expect(store).toMatchObject({ handler: 'store', bodyFields: ['amount', 'items', 'currency'], span: { file: 'app/Http/Controllers/OrderController.php', start: 8, end: 12 } });
    expect(store?.cost?.level).toBe('money');
    expect(refund).toMatchObject({ handler: 'refund', bodyFields: ['amount', 'reason', 'lines', 'note'] });
    // Route::any runs for every method: shown as POST, kept because its action moves money.
    expect(sync?.cost?.level).toBe('money');
    expect(contact).toMatchObject({ bodyFields: ['email'], cost: { level: 'external' } });
    expect(inspection.paymentCalls).toMatchObject([{ provider: 'stripe', call: 'PaymentIntent::create', location: 'app/Http/Controllers/OrderController.php:11', passesIdempotencyKey: false }]);
  });

  it("keeps routes/api.php under /api when a RouteServiceProvider says so, and adds another route file's provider prefix", async () => {
    const dir = project({
      'composer.json': '{"require":{"laravel/framework":"^8.0"}}',
      'app/Providers/RouteServiceProvider.php': php(
        'class RouteServiceProvider extends ServiceProvider',
        '{',
        '    public function boot()',
        '    {',
        '        $this->routes(function () {',
        "            Route::prefix('api')->middleware('api')->group(base_path('routes/api.php'));",
        "            Route::prefix('hooks')->group(base_path('routes/webhooks.php'));",
        "            Route::middleware('web')->group(base_path('routes/web.php'));",
        '        });',
        '    }',
        '}',
      ),
      'routes/api.php': php("Route::post('orders', 'OrderController@store');"),
      'routes/webhooks.php': php("Route::post('stripe', 'StripeWebhookController@handle');"),
      'routes/web.php': php("Route::delete('session', 'SessionController@destroy');"),
      'app/Http/Controllers/OrderController.php': php('namespace App\\Http\\Controllers;', 'class OrderController {', '    public function store(Request $request) {', '        return $request->amount;', '    }', '}'),
    });
    const inspection = await inspectCodebase(dir);
    expect(shown(inspection.endpoints)).toEqual(['POST /api/orders', 'DELETE /session', 'POST /hooks/stripe']);
    expect(inspection.endpoints[0]).toMatchObject({ bodyFields: ['amount'], span: { file: 'app/Http/Controllers/OrderController.php' } });
    expect(inspection.webhooks.map((w) => w.route)).toEqual(['/hooks/stripe']);
  });
});
