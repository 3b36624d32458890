/**
 * Python routes as the frameworks serve them: Flask/DRF method tuples and sets, Django function
 * views, DRF inherited actions, FastAPI parameter sources, pydantic shapes, comments inside
 * blocks, Django/DRF trailing slashes, routes registered by call, requirement files, settings
 * prefixes. Each case was a defect seen on a real repository.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { emptyManifestFindings, readManifest } from '../src/inspect/manifests.js';
import { indentBlockEnd } from '../src/inspect/patterns/line-patterns.js';
import { scanPython } from '../src/inspect/patterns/python.js';
import { joinRoute } from '../src/inspect/route-graph.js';


const project = tempProjects('py');

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const routes = (endpoints: readonly { method: string; route: string; location: string }[]): string[] => endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`);

describe('Python methods written as a tuple or a set', () => {
  it('reads Flask `methods=("POST",)` and `{"DELETE"}`, DRF `@api_view(("POST",))` and `@action(methods=("post",))`', async () => {
    const dir = project({
      'requirements.txt': 'flask\n',
      'app/views.py': lines(
        'from flask import Blueprint, request',
        'bp = Blueprint("users", __name__)',
        '@bp.route("/api/users", methods=("POST",))',
        'def register():',
        '    return request.json["email"]',
        '@bp.route("/api/users/<int:uid>", methods={"DELETE", "GET"})',
        'def remove(uid):',
        '    return None',
        '@bp.route("/api/users", methods=("GET",))',
        'def listing():',
        '    return []',
      ),
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual(['POST /api/users @ app/views.py:3', 'DELETE /api/users/{uid} @ app/views.py:6']);
    expect(inspection.endpoints[0]?.bodyFields).toEqual(['email']);

    const drf = scanPython('shop/views.py', lines(
      'from rest_framework import viewsets',
      'from rest_framework.decorators import action, api_view',
      '@api_view(("POST",))',
      'def refund(request):',
      '    return None',
      'class OrderViewSet(viewsets.GenericViewSet):',
      '    @action(detail=True, methods=("post",))',
      '    def cancel(self, request, pk=None):',
      '        return None',
    )).findings.endpoints;
    expect(drf.map((e) => `${e.method} ${e.route} ${e.scope}`)).toEqual(['POST  django:view:refund', 'POST /{pk}/cancel django:view:OrderViewSet']);
  });
});

describe('Django function views', () => {
  const views = lines(
    'import stripe',
    'from django.views.decorators.http import require_POST, require_http_methods, require_safe',
    '',
    '@require_POST',
    'def refund(request, order_id):',
    '    Refund.objects.create(order_id=order_id, amount=request.POST["amount"])',
    '',
    '@require_http_methods(["PUT", "GET"])',
    'def rename(request, order_id):',
    '    Order.objects.filter(pk=order_id).update(name=request.POST.get("name"))',
    '',
    '@require_safe',
    'def show(request, order_id):',
    '    return render(request, "order.html")',
    '',
    'def contact(request):',
    '    if request.method == "POST":',
    '        Message.objects.create(body=request.POST["body"])',
    '    return render(request, "contact.html")',
    '',
    'def delete_note(request, note_id):',
    '    Note.objects.get(pk=note_id).delete()',
    '    return redirect("notes")',
    '',
    'def notes(request):',
    '    return render(request, "notes.html", {"notes": Note.objects.all()})',
    '',
    '@require_POST',
    'def stripe_hook(request):',
    '    event = stripe.Webhook.construct_event(request.body, request.META["HTTP_STRIPE_SIGNATURE"], SECRET)',
    '    return HttpResponse(status=200)',
  );

  it('are routes through urls.py: methods from the decorators or the request.method check; a view with no check is kept only when it writes', async () => {
    const dir = project({
      'requirements.txt': 'django\nstripe\n',
      'config/urls.py': 'from django.urls import include, path\nurlpatterns = [path("shop/", include("orders.urls"))]\n',
      'orders/urls.py': lines(
        'from django.urls import path',
        'from . import views',
        'urlpatterns = [',
        '    path("<int:order_id>/refund/", views.refund),',
        '    path("<int:order_id>/rename/", views.rename),',
        '    path("<int:order_id>/", views.show),',
        '    path("contact/", views.contact),',
        '    path("notes/<int:note_id>/delete/", views.delete_note),',
        '    path("notes/", views.notes),',
        '    path("wh/", views.stripe_hook),',
        ']',
      ),
      'orders/views.py': views,
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual([
      'POST /shop/{order_id}/refund/ @ orders/views.py:5',
      'PUT /shop/{order_id}/rename/ @ orders/views.py:9',
      'POST /shop/contact/ @ orders/views.py:16',
      // No method check: every method runs it; POST is assumed, and it stays because it deletes.
      'POST /shop/notes/{note_id}/delete/ @ orders/views.py:21',
      'POST /shop/wh/ @ orders/views.py:29',
    ]);
    expect(inspection.endpoints.map((e) => e.bodyFields)).toEqual([['amount'], ['name'], ['body'], [], []]);
    expect(inspection.endpoints.find((e) => e.route === '/shop/wh/')?.webhook).toBe(true);
    expect(inspection.notes.join('\n')).toMatch(/orders\/views\.py:21: the handler never checks req\.method/);
    expect(inspection.notes.join('\n')).not.toMatch(/not routed by any urls\.py/);
  });

  it('are not looked for outside views modules unless a method signal says so, nor in an error handler', () => {
    const helper = scanPython('orders/context.py', 'def cart(request):\n    request.session.save()\n').findings.endpoints;
    expect(helper).toEqual([]);
    const handler = scanPython('shop/views.py', 'def page_not_found(request, exception):\n    return render(request, "404.html")\n').findings.endpoints;
    expect(handler).toEqual([]);
  });
});

describe('DRF actions a view inherits', () => {
  it('ModelViewSet, model mixins on a GenericViewSet and concrete generic views serve their actions; a serializer gives the body', async () => {
    const dir = project({
      'requirements.txt': 'django\ndjangorestframework\n',
      'config/urls.py': 'from django.urls import include, path\nurlpatterns = [path("api/", include("shop.urls"))]\n',
      'shop/serializers.py': lines(
        'from rest_framework import serializers',
        'class OrderSerializer(serializers.Serializer):',
        '    id = serializers.IntegerField(read_only=True)',
        '    sku = serializers.CharField()',
        '    quantity = serializers.IntegerField()',
      ),
      'shop/views.py': lines(
        'from rest_framework import generics, mixins, viewsets',
        'from .serializers import OrderSerializer',
        'class OrderViewSet(viewsets.ModelViewSet):',
        '    serializer_class = OrderSerializer',
        'class NoteViewSet(mixins.CreateModelMixin,',
        '                  mixins.DestroyModelMixin,',
        '                  viewsets.GenericViewSet):',
        '    lookup_field = "slug"',
        '    def perform_destroy(self, instance):',
        '        instance.delete()',
        'class ProfileView(generics.RetrieveUpdateAPIView):',
        '    def update(self, request, *args, **kwargs):',
        '        return save_profile(request.data["bio"])',
        'class ReadOnlyView(generics.RetrieveAPIView):',
        '    serializer_class = OrderSerializer',
        'class SignupView(generics.CreateAPIView):',
        '    serializer_class = OrderSerializer',
      ),
      'shop/urls.py': lines(
        'from django.urls import include, path',
        'from rest_framework.routers import DefaultRouter, SimpleRouter',
        'from . import views',
        'router = DefaultRouter()',
        'router.register("orders", views.OrderViewSet)',
        'plain = SimpleRouter(trailing_slash=False)',
        'plain.register("notes", views.NoteViewSet)',
        'urlpatterns = [',
        '    path("", include(router.urls)),',
        '    path("", include(plain.urls)),',
        '    path("profile/", views.ProfileView.as_view()),',
        '    path("me/", views.ReadOnlyView.as_view()),',
        '    path("signup/", views.SignupView.as_view()),',
        ']',
      ),
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual([
      'POST /api/orders/ @ shop/views.py:3',
      'PUT /api/orders/{pk}/ @ shop/views.py:3',
      'PATCH /api/orders/{pk}/ @ shop/views.py:3',
      'DELETE /api/orders/{pk}/ @ shop/views.py:3',
      'POST /api/notes @ shop/views.py:5',
      // The perform_destroy hook is the action's own work.
      'DELETE /api/notes/{slug} @ shop/views.py:9',
      // An update override serves PUT and PATCH (patch → partial_update → update).
      'PUT /api/profile/ @ shop/views.py:12',
      'PATCH /api/profile/ @ shop/views.py:12',
      'POST /api/signup/ @ shop/views.py:16',
    ]);
    const orderCreate = inspection.endpoints[0];
    expect(orderCreate).toMatchObject({ bodyType: 'OrderSerializer', bodyFields: ['sku', 'quantity'] });
    expect(inspection.endpoints.find((e) => e.route === '/api/profile/')?.bodyFields).toEqual(['bio']);
  });
});

describe('FastAPI parameters that are not the body', () => {
  it('skips Depends/Security/Path/Query/Header/Cookie defaults and Annotated[T, Depends(...)], and reads parameters after them', () => {
    const text = lines(
      'from typing import Annotated',
      'from fastapi import APIRouter, Body, Depends, Query, Security',
      'router = APIRouter()',
      '@router.post("/articles/{slug}/comments")',
      'async def comment(',
      '    article: Article = Depends(get_article(required=True)),',
      '    user: Annotated[User, Security(current_user, scopes=["write"])],',
      '    page: int = Query(1, ge=1),',
      '    data: CommentIn = Body(..., embed=True),',
      '):',
      '    return None',
      '@router.delete("/articles/{slug}")',
      'async def remove(article: Article = Depends(get_article), repo: Repo = Depends(get_repo)):',
      '    return None',
    );
    const [comment, remove] = scanPython('app/routes.py', text).findings.endpoints;
    expect(comment).toMatchObject({ bodyType: 'CommentIn', queryFields: ['page'] });
    expect(remove?.bodyType).toBeUndefined();
  });
});

describe('pydantic shapes', () => {
  it('lists only the class body’s own annotations, and a ClassVar hides the inherited field', async () => {
    const dir = project({
      'requirements.txt': 'fastapi\n',
      'app/main.py': lines(
        'from typing import ClassVar',
        'from fastapi import FastAPI',
        'from pydantic import BaseModel, validator',
        'app = FastAPI()',
        'class ProductBase(BaseModel):',
        '    id: int',
        '    title: str',
        '    @validator("title")',
        '    def check(cls, value: str, values: dict):',
        '        return value',
        'class ProductCreate(ProductBase):',
        '    id: ClassVar[int]',
        '    price: int',
        '@app.post("/products")',
        'def create(product: ProductCreate):',
        '    return product',
      ),
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints[0]?.bodyFields).toEqual(['title', 'price']);
  });
});

describe('a comment indented less than the code', () => {
  it('does not end a Python block', () => {
    const text = lines('def handler(data):', '    x = 1', '# note at column 0', '    send_mail(x)', 'y = 2');
    expect(indentBlockEnd(text, 1)).toBe(4);
    const [found] = scanPython('app/main.py', lines(
      'from fastapi import FastAPI',
      'app = FastAPI()',
      '@app.post("/contact")',
      'async def contact(data: ContactIn):',
      '    result = None',
      '# a comment at column 0',
      '    await mailer.send_message(data)',
      '    return result',
    )).findings.endpoints;
    expect(found?.span).toEqual({ start: 4, end: 8 });
  });
});

describe('Django and DRF trailing slashes', () => {
  it('keeps the slash of the last segment that has one, and leaves other frameworks’ paths as they were', () => {
    expect(joinRoute('', '/api/refund/', '')).toBe('/api/refund/');
    expect(joinRoute('/api', 'orders//')).toBe('/api/orders//');
    expect(joinRoute('', '/api/orders//', '/{pk}/cancel')).toBe('/api/orders/{pk}/cancel/');
    expect(joinRoute('', '/api/orders//', '')).toBe('/api/orders/');
    expect(joinRoute('/api', '/items', '/')).toBe('/api/items');
    expect(joinRoute('/api/', '/orders')).toBe('/api/orders');
    expect(joinRoute('', '/api', '/orders/')).toBe('/api/orders/');
  });

  it('re_path `/?$` is shown without the optional slash', async () => {
    const dir = project({
      'requirements.txt': 'django\n',
      'config/urls.py': "from django.conf.urls import include, url\nurlpatterns = [url(r'^api/', include('shop.urls'))]\n",
      'shop/urls.py': "from django.conf.urls import url\nfrom . import views\nurlpatterns = [url(r'^refund/?$', views.refund)]\n",
      'shop/views.py': '@require_POST\ndef refund(request):\n    Refund.objects.create()\n',
    });
    expect(routes((await inspectCodebase(dir)).endpoints)).toEqual(['POST /api/refund @ shop/views.py:2']);
  });
});

describe('routes registered by a call', () => {
  it('FastAPI add_api_route, Flask add_url_rule with a function and with a MethodView', async () => {
    const dir = project({
      'requirements.txt': 'fastapi\nflask\n',
      'api/main.py': lines(
        'from fastapi import APIRouter, FastAPI',
        'app = FastAPI()',
        'router = APIRouter(prefix="/items")',
        'async def delete_item(item_id: int):',
        '    await repo.delete(item_id)',
        'router.add_api_route("/{item_id}", delete_item, methods=["DELETE"])',
        'router.add_api_route("/{item_id}", read_item)',
        'app.include_router(router)',
      ),
      'web/app.py': lines(
        'from flask import Blueprint, request',
        'from flask.views import MethodView',
        'bp = Blueprint("refunds", __name__, url_prefix="/refunds")',
        'def capture():',
        '    return request.json["amount"]',
        'class RefundAPI(MethodView):',
        '    def get(self):',
        '        return []',
        '    def post(self):',
        '        return request.json["order_id"]',
        'bp.add_url_rule("/capture", view_func=capture, methods=["POST"])',
        'bp.add_url_rule("/", view_func=RefundAPI.as_view("refund"))',
      ),
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual([
      'DELETE /items/{item_id} @ api/main.py:6',
      'POST /refunds/capture @ web/app.py:11',
      'POST /refunds/ @ web/app.py:9',
    ]);
    expect(inspection.endpoints.map((e) => e.bodyFields)).toEqual([[], ['amount'], ['order_id']]);
  });
});

describe('Python requirement files', () => {
  it('follows `-r` includes, reads requirements/*.txt and a Pipfile beside another manifest', () => {
    const dir = project({
      'requirements.txt': '-r deps/base.in\n',
      'deps/base.in': 'Flask\n',
      'requirements/prod.txt': 'psycopg2\n',
      'Pipfile': '[[source]]\nurl = "https://pypi.org/simple"\n\n[packages]\n"stripe" = "*"\n\n[requires]\npython_version = "3.11"\n',
    });
    const out = emptyManifestFindings();
    for (const relPath of ['requirements.txt', 'requirements/prod.txt']) {
      readManifest(out, { absPath: join(dir, relPath), relPath }, relPath === 'requirements.txt' ? '-r deps/base.in\n' : 'psycopg2\n');
    }
    expect(out.frameworks.map((f) => `${f.value} ${f.location}`)).toEqual(['flask deps/base.in:1']);
    expect(out.databases.map((f) => `${f.value} ${f.location}`)).toEqual(['postgresql requirements/prod.txt:1']);
    expect(out.providers.map((f) => `${f.value} ${f.location}`)).toEqual(['stripe Pipfile:5']);
  });
});

describe('a FastAPI prefix from a settings field', () => {
  it('uses the pydantic BaseSettings default of `prefix=settings.api_prefix`', async () => {
    const dir = project({
      'requirements.txt': 'fastapi\npydantic-settings\n',
      'app/core/config.py': 'from pydantic_settings import BaseSettings\nclass AppSettings(BaseSettings):\n    api_prefix: str = "/api"\nsettings = AppSettings()\n',
      'app/main.py': lines(
        'from fastapi import APIRouter, FastAPI',
        'from app.core.config import settings',
        'router = APIRouter()',
        '@router.post("/orders")',
        'def create():',
        '    return None',
        'app = FastAPI()',
        'app.include_router(router, prefix=settings.api_prefix)',
      ),
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual(['POST /api/orders @ app/main.py:4']);
  });
});
