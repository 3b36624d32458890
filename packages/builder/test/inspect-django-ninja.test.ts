/**
 * Django Ninja apps as Ninja serves them: `NinjaAPI()` and `Router()` operations, `add_router`
 * mounts (a router, a module's router, a dotted module path), the API's own `path('api/',
 * api.urls)` mount, `api_operation` method lists, `Schema` bodies, `Form[...]` and `Query[...]`
 * parameters, and `auth=` classes that put the principal elsewhere than `request.user`.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';

const project = tempProjects('ninja');
const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const app = {
  'requirements.txt': 'django\ndjango-ninja\n',
  'shop/schemas.py': lines(
    'from ninja import Schema',
    'class OrderIn(Schema):',
    '    sku: str',
    '    quantity: int',
    'class Filters(Schema):',
    '    status: str | None = None',
  ),
  'shop/api.py': lines(
    'from ninja import Form, Query, Router',
    'from shop.schemas import Filters, OrderIn',
    'router = Router()',
    '@router.post("/")',
    'def create_order(request, payload: OrderIn):',
    '    return Order.objects.create(**payload.dict())',
    '@router.put("/{int:order_id}")',
    'def replace_order(request, order_id: int, payload: Form[OrderIn]):',
    '    return Order.objects.filter(id=order_id).update(**payload.dict())',
    '@router.api_operation(["POST", "PATCH", "GET"], "/{order_id}/notes")',
    'def note(request, order_id: int, text: Form[str], filters: Query[Filters]):',
    '    return Note.objects.create(order_id=order_id, text=text)',
    '@router.get("/")',
    'def listing(request):',
    '    return []',
  ),
  'billing/api.py': lines(
    'from ninja import Router',
    'router = Router()',
    '@router.delete("/invoices/{invoice_id}")',
    'def void_invoice(request, invoice_id: int):',
    '    Invoice.objects.filter(id=invoice_id).delete()',
  ),
  'project/api.py': lines(
    'from ninja import NinjaAPI',
    'from ninja.security import HttpBearer',
    'from shop.api import router as shop_router',
    'class TokenAuth(HttpBearer):',
    '    def authenticate(self, request, token):',
    '        return Token.objects.filter(key=token).first()',
    'api = NinjaAPI(auth=TokenAuth())',
    'api.add_router("/orders", shop_router)',
    'api.add_router("/billing/", "billing.api.router")',
    '@api.post("/ping")',
    'def ping(request):',
    '    return Ping.objects.create()',
  ),
  'project/urls.py': lines(
    'from django.urls import path',
    'from project.api import api',
    'urlpatterns = [path("api/v1/", api.urls)]',
  ),
};

describe('Django Ninja', () => {
  it('serves each operation below its routers and the urls.py mount, as Ninja joins them', async () => {
    const inspection = await inspectCodebase(project(app));
    const found = Object.fromEntries(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e]));
    expect(Object.keys(found).sort()).toEqual([
      'DELETE /api/v1/billing/invoices/{invoice_id}',
      'PATCH /api/v1/orders/{order_id}/notes',
      'POST /api/v1/orders/',
      'POST /api/v1/orders/{order_id}/notes',
      'POST /api/v1/ping',
      'PUT /api/v1/orders/{order_id}',
    ]);
    expect(inspection.endpoints.every((e) => e.framework === 'django')).toBe(true);
    expect(found['POST /api/v1/orders/']?.bodyFields).toEqual(['sku', 'quantity']);
    expect(found['PUT /api/v1/orders/{order_id}']?.bodyFields).toEqual(['sku', 'quantity']);
    // `Form[str]` is one form field; `Query[Filters]` is the query, never the body.
    expect(found['POST /api/v1/orders/{order_id}/notes']?.bodyFields).toEqual(['text']);
    expect(found['POST /api/v1/orders/{order_id}/notes']?.queryFields).toEqual(['filters']);
    expect(inspection.framework?.value).toBe('django');
  });

  it('says where an `auth=` class puts the principal the generated Django decorator does not read', async () => {
    const inspection = await inspectCodebase(project(app));
    expect(inspection.notes.filter((n) => n.includes('Django Ninja'))).toEqual([
      expect.stringMatching(/^project\/api\.py:7: Django Ninja authenticates with `auth=TokenAuth\(\)`.*request\.auth/),
    ]);
    const session = await inspectCodebase(project({
      ...app,
      'project/api.py': lines('from ninja import NinjaAPI', 'from ninja.security import django_auth', 'api = NinjaAPI(auth=django_auth)', '@api.post("/ping")', 'def ping(request):', '    return Ping.objects.create()'),
    }));
    expect(session.notes.filter((n) => n.includes('Django Ninja'))).toEqual([]);
  });

  it('does not take a Ninja operation for a plain Django view or a Ninja-less `Router()` for Ninja\'s', async () => {
    const inspection = await inspectCodebase(project({
      'requirements.txt': 'django\n',
      'shop/views.py': lines(
        'from ninja import NinjaAPI',
        'from other import Router',
        'api = NinjaAPI()',
        'plain = Router()',
        '@api.api_operation(["DELETE"], "/carts/{cart_id}")',
        'def empty_cart(request, cart_id: int):',
        '    Cart.objects.filter(id=cart_id).delete()',
        '@plain.post("/nothing")',
        'def nothing(request):',
        '    return None',
      ),
    }));
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route}`)).toEqual(['DELETE /carts/{cart_id}']);
  });

  it('nests a router added to a router, imported relatively (`from . import items`)', async () => {
    const inspection = await inspectCodebase(project({
      'requirements.txt': 'django\ndjango-ninja\n',
      'shop/items.py': lines('from ninja import Router', 'router = Router()', '@router.post("/items/")', 'def add_item(request):', '    return Item.objects.create()'),
      'shop/orders.py': lines('from ninja import Router', 'from . import items', 'router = Router()', 'router.add_router("/{order_id}", items.router)'),
      'shop/api.py': lines('from ninja import NinjaAPI', 'from .orders import router', 'api = NinjaAPI()', 'api.add_router("/orders", router)'),
      'urls.py': lines('from django.urls import path', 'from shop.api import api', 'urlpatterns = [path("api/", api.urls)]'),
    }));
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route}`)).toEqual(['POST /api/orders/{order_id}/items/']);
  });
});
