/**
 * The inspector on small generated projects for the stacks the big fixtures do not cover (Flask,
 * Django, ASP.NET, Rails, Laravel, kafkajs, NATS, SQS, net/http), the bounds (skipped folders,
 * file size, file count) and the things it must NOT report (HTTP clients, test requests).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { walkSourceFiles } from '../src/inspect/walk.js';


const project = tempProjects('inspect');

const routes = (endpoints: readonly { method: string; route: string; location: string }[]) => endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`);

describe('inspectCodebase: more stacks by pattern', () => {
  it('Flask blueprints and Django views, pika and Celery consumers, requirements.txt', async () => {
    const dir = project({
      'requirements.txt': 'flask==3.0\n# comment\npsycopg2-binary>=2.9\npika\ncelery[redis]==5.4\n',
      'shop/api.py': [
        'from flask import Blueprint, request',
        'bp = Blueprint("orders", __name__, url_prefix="/orders")',
        '',
        '@bp.route("/<order_id>/pay", methods=["POST", "GET"])',
        'def pay(order_id):',
        '    data = request.get_json()',
        '    amount = data["amount"]',
        '    return {"ok": data.get("currency")}',
      ].join('\n'),
      'shop/views.py': [
        'from rest_framework.decorators import api_view',
        'from rest_framework import viewsets',
        '',
        '@api_view(["POST"])',
        'def submit_order(request):',
        '    return None',
        '',
        'class RefundViewSet(viewsets.ModelViewSet):',
        '    def create(self, request):',
        '        return None',
      ].join('\n'),
      'shop/urls.py': [
        'from django.urls import include, path',
        'from rest_framework.routers import DefaultRouter',
        'from . import views',
        'router = DefaultRouter()',
        'router.register(r"refunds", views.RefundViewSet)',
        'urlpatterns = [path("orders/submit/", views.submit_order), path("api/", include(router.urls))]',
      ].join('\n'),
      'shop/worker.py': 'import pika\nch.basic_consume(queue="refunds", on_message_callback=handle)\n\n@shared_task\ndef send_receipt(order_id):\n    pass\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.language).toMatchObject({ value: 'python', location: 'requirements.txt:1' });
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'requirements.txt:3' });
    expect(inspection.broker).toMatchObject({ value: 'rabbitmq', location: 'requirements.txt:4' });
    expect(routes(inspection.endpoints)).toEqual([
      'POST /orders/{order_id}/pay @ shop/api.py:4',
      // Django serves `path("orders/submit/", …)` with its trailing slash.
      'POST /orders/submit/ @ shop/views.py:4',
      // DRF router registrations sit below the prefix of `path("api/", include(router.urls))`; a
      // DefaultRouter ends its routes with `/`; a ModelViewSet serves the actions it inherits too.
      'POST /api/refunds/ @ shop/views.py:9',
      'PUT /api/refunds/{pk}/ @ shop/views.py:8',
      'PATCH /api/refunds/{pk}/ @ shop/views.py:8',
      'DELETE /api/refunds/{pk}/ @ shop/views.py:8',
    ]);
    expect(inspection.endpoints[0]).toMatchObject({ framework: 'flask', handler: 'pay', bodyFields: ['amount', 'currency'] });
    expect(inspection.endpoints[1]?.framework).toBe('django');
    expect(inspection.consumers).toEqual([
      { broker: 'rabbitmq', channel: 'refunds', location: 'shop/worker.py:2', evidence: '.basic_consume(queue="refunds' },
      {
        broker: 'other', location: 'shop/worker.py:4', evidence: '@shared_task', handler: 'send_receipt',
        redelivery: expect.stringMatching(/^acks_late off \(Celery’s default — no `task_acks_late` setting found\): .*a worker crash loses the task/),
      },
    ]);
  });

  it('Django class-based views routed by Class.as_view(...) in path, re_path, namespaced and inline includes', async () => {
    const dir = project({
      'requirements.txt': 'django==5.0\ndjangorestframework\n',
      'shop/views.py': [
        'from rest_framework.views import APIView',
        'from django.views import View',
        '',
        'class RefundView(APIView):',
        '    def post(self, request):',
        '        return None',
        '',
        'class CaptureView(View):',
        '    def put(self, request, pk):',
        '        return None',
        '',
        'class VoidView(APIView):',
        '    def delete(self, request):',
        '        return None',
      ].join('\n'),
      'config/urls.py': 'from django.urls import include, path\nurlpatterns = [path("api/", include(("shop.urls", "shop")))]\n',
      'shop/urls.py': [
        'from django.urls import include, path, re_path',
        'from . import views',
        'from .views import VoidView',
        'urlpatterns = [',
        '    path("refunds/", views.RefundView.as_view(), name="refund"),',
        '    path("payments/", include(([',
        '        # the capture\'s regex route',
        '        re_path(r"^captures/(?P<pk>\\d+)/$", views.CaptureView.as_view(http_method_names=["put"])),',
        '    ], "payments"))),',
        '    path("voids/", VoidView.as_view()),',
        ']',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual([
      'POST /api/refunds/ @ shop/views.py:5',
      // The inline list's prefix applies; the regex's named group is shown as a parameter, like path()'s converters.
      'PUT /api/payments/captures/{pk}/ @ shop/views.py:9',
      'DELETE /api/voids/ @ shop/views.py:13',
    ]);
    expect(inspection.notes.join('\n')).not.toMatch(/not routed by any urls\.py/);
  });

  it('Django url() patterns: a router under a prefix with its lookup_field, a generic view with its own path', async () => {
    const dir = project({
      'requirements.txt': 'django==1.11\ndjangorestframework\n',
      'blog/views.py': [
        'from rest_framework import generics, viewsets',
        '',
        'class ArticleViewSet(viewsets.GenericViewSet):',
        "    lookup_field = 'slug'",
        '    def update(self, request, slug):',
        '        return None',
        '',
        'class CommentsDestroyAPIView(generics.DestroyAPIView):',
        '    def destroy(self, request, article_slug=None, comment_pk=None):',
        '        return None',
      ].join('\n'),
      'blog/urls.py': [
        'from django.conf.urls import include, url',
        'from rest_framework.routers import DefaultRouter',
        'from .views import ArticleViewSet, CommentsDestroyAPIView',
        'router = DefaultRouter(trailing_slash=False)',
        "router.register(r'articles', ArticleViewSet)",
        'urlpatterns = [',
        "    url(r'^', include(router.urls)),",
        "    url(r'^articles/(?P<article_slug>[-\\w]+)/comments/(?P<comment_pk>[\\d]+)/?$', CommentsDestroyAPIView.as_view()),",
        ']',
      ].join('\n'),
      'config/urls.py': "from django.conf.urls import include, url\nurlpatterns = [url(r'^api/', include('blog.urls', namespace='blog'))]\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual([
      'PUT /api/articles/{slug} @ blog/views.py:5',
      // The generic view's parameters are in its url(); the router's detail `{pk}` is not added to it.
      'DELETE /api/articles/{article_slug}/comments/{comment_pk} @ blog/views.py:9',
    ]);
  });

  it('ASP.NET controllers and minimal APIs with a [FromBody] record and Stripe.net', async () => {
    const dir = project({
      'Api/Api.csproj': '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <ItemGroup>\n    <PackageReference Include="Npgsql" Version="8.0.0" />\n    <PackageReference Include="Stripe.net" Version="45.0.0" />\n  </ItemGroup>\n</Project>\n',
      'Api/Controllers/PaymentsController.cs': [
        'using Stripe;',
        'public record CreatePayment(long Amount, string Currency, string CustomerId);',
        '[ApiController]',
        '[Route("api/[controller]")]',
        'public class PaymentsController : ControllerBase',
        '{',
        '    [HttpPost]',
        '    public async Task<IActionResult> Create([FromBody] CreatePayment body)',
        '    {',
        '        var intent = await new PaymentIntentService().CreateAsync(new PaymentIntentCreateOptions(), new RequestOptions { IdempotencyKey = key });',
        '        return Ok(intent.Id);',
        '    }',
        '}',
      ].join('\n'),
      'Api/Program.cs': 'var app = builder.Build();\napp.MapPost("/refunds", (RefundRequest r) => Results.Ok());\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.language?.value).toBe('csharp');
    expect(inspection.framework).toMatchObject({ value: 'aspnet', location: 'Api/Api.csproj:1' });
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'Api/Api.csproj:3' });
    expect(inspection.projectName?.value).toBe('Api');
    expect(routes(inspection.endpoints)).toEqual(['POST /refunds @ Api/Program.cs:2', 'POST /api/payments @ Api/Controllers/PaymentsController.cs:7']);
    expect(inspection.endpoints[1]).toMatchObject({ handler: 'Create', bodyType: 'CreatePayment', bodyFields: ['Amount', 'Currency', 'CustomerId'] });
    expect(inspection.paymentCalls).toMatchObject([{ provider: 'stripe', location: 'Api/Controllers/PaymentsController.cs:10', passesIdempotencyKey: true }]);
  });

  it('Rails routes (verbs and resources with only:) and Laravel routes', async () => {
    const dir = project({
      Gemfile: "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngem 'pg'\ngem 'stripe'\n",
      'config/routes.rb': "Rails.application.routes.draw do\n  resources :payments, only: [:create, :show]\n  post '/webhooks/stripe', to: 'webhooks#stripe'\nend\n",
      'app/services/charge.rb': "Stripe::PaymentIntent.create({ amount: 100 }, { idempotency_key: key })\n",
      'routes/api.php': "<?php\nRoute::post('/orders', [OrderController::class, 'store']);\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.framework?.value).toBe('rails');
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'Gemfile:3' });
    expect(routes(inspection.endpoints)).toEqual([
      'POST /payments @ config/routes.rb:2',
      'POST /webhooks/stripe @ config/routes.rb:3',
      'POST /api/orders @ routes/api.php:2',
    ]);
    expect(inspection.webhooks.map((w) => w.route)).toEqual(['/webhooks/stripe']);
    expect(inspection.paymentCalls).toMatchObject([{ provider: 'stripe', location: 'app/services/charge.rb:1', passesIdempotencyKey: true }]);
  });

  it('kafkajs, NATS and SQS consumers; HTTP clients and test requests are not endpoints', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'events', dependencies: { express: '5', kafkajs: '2', nats: '2', 'sqs-consumer': '10', axios: '1' } }, null, 2),
      'src/kafka.js': "const { Kafka } = require('kafkajs');\nconst consumer = new Kafka({}).consumer({ groupId: 'g' });\nawait consumer.subscribe({ topic: 'payments.captured' });\nawait consumer.run({ eachMessage: async () => {} });\n",
      'src/nats.ts': "import { connect } from 'nats';\nconst nc = await connect();\nnc.subscribe('refunds.requested', { callback: () => {} });\n",
      'src/sqs.ts': "import { Consumer } from 'sqs-consumer';\nConsumer.create({ queueUrl: 'https://sqs/q/payouts', handleMessage: async () => {} }).start();\n",
      'src/client.ts': "import axios from 'axios';\nimport express from 'express';\nexport const send = () => axios.post('/charges', { amount: 1 });\nconst http = { post: (_u: string, _b: unknown) => 0 };\nhttp.post('/x', {});\n",
      'test/app.test.ts': "import request from 'supertest';\nimport express from 'express';\nconst app = express();\napp.post('/only-in-tests', (_req, res) => res.end());\nrequest(app).post('/charges');\n",
    });
    const inspection = await inspectCodebase(dir);
    // Three .ts files against one .js: the code is mostly TypeScript whatever package.json says.
    expect(inspection.language?.value).toBe('typescript');
    expect(inspection.endpoints).toEqual([]);
    expect(inspection.consumers).toEqual([
      { broker: 'kafka', channel: 'payments.captured', location: 'src/kafka.js:4', evidence: 'consumer.run' },
      { broker: 'nats', channel: 'refunds.requested', location: 'src/nats.ts:3', evidence: 'nc.subscribe' },
      { broker: 'sqs', channel: 'https://sqs/q/payouts', location: 'src/sqs.ts:2', evidence: 'Consumer.create' },
    ]);
  });

  it('reads body fields through ??, renames, safeParse results and Hono validators', async () => {
    const dir = project({
      'package.json': '{"name":"fields","dependencies":{"express":"5","hono":"4"}}',
      'src/express.ts': [
        "import express from 'express';",
        'const app = express();',
        "app.post('/a', (req, res) => { const { amount, recipient_id: to } = (req.body ?? {}) as Record<string, unknown>; res.json({ amount, to }); });",
        "app.post('/b', (req, res) => { const parsed = schema.safeParse(req.body); if (parsed.success) res.json(parsed.data.sku); });",
        "app.post('/c', (req, res) => { const body = req.body || {}; res.json(body['quantity']); });",
      ].join('\n'),
      'src/hono.ts': "import { Hono } from 'hono';\nconst app = new Hono();\napp.post('/d', (c) => { const { email } = c.req.valid('json'); return c.json({ email }); });\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.map((e) => [e.route, e.framework, e.bodyFields])).toEqual([
      ['/a', 'express', ['amount', 'recipient_id']],
      ['/b', 'express', ['sku']],
      ['/c', 'express', ['quantity']],
      ['/d', 'hono', ['email']],
    ]);
  });

  it('Go net/http 1.22 method patterns, chi and gorilla mux; Kubernetes replicas mean multi-instance', async () => {
    const dir = project({
      'go.mod': 'module example.com/ledger\n\ngo 1.22\n\nrequire github.com/jackc/pgx/v5 v5.6.0\n',
      'main.go': [
        'package main',
        'func main() {',
        '\tmux := http.NewServeMux()',
        '\tmux.HandleFunc("POST /entries", postEntry)',
        '\tr.Post("/accounts", createAccount)',
        '\tm.HandleFunc("/transfers", transfer).Methods("POST", "GET")',
        '\tresp, _ := http.Post("http://x/notify", "application/json", nil)',
        '}',
      ].join('\n'),
      'deploy/k8s.yaml': 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'go.mod:5' });
    expect(routes(inspection.endpoints)).toEqual(['POST /accounts @ main.go:5', 'POST /entries @ main.go:4', 'POST /transfers @ main.go:6']);
    expect(inspection.framework?.value).toBe('net-http');
    expect(inspection.instances).toMatchObject({ value: 'multi-instance', location: 'deploy/k8s.yaml:4', evidence: 'replicas: 3' });
  });

  it('skips dependency and build folders and stays within its file and size bounds', async () => {
    const route = "import express from 'express';\nconst app = express();\napp.post('/real', (req, res) => res.end());\n";
    const dir = project({
      'package.json': '{"name":"bounded","dependencies":{"express":"5"}}',
      'src/app.ts': route,
      'node_modules/lib/index.js': route.replace('/real', '/from-node-modules'),
      'dist/app.js': route.replace('/real', '/from-dist'),
      'vendor/x.ts': route.replace('/real', '/from-vendor'),
      '.git/hooks/x.ts': route.replace('/real', '/from-git'),
      'src/huge.ts': `${route.replace('/real', '/from-huge')}${'// padding\n'.repeat(60_000)}`,
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual(['POST /real @ src/app.ts:3']);
    expect(inspection.truncated).toBe(true);
    expect(inspection.notes.join()).toMatch(/over the size limit/);

    const few = await inspectCodebase(dir, { maxFiles: 1 });
    expect(few.filesScanned).toBe(1);
    expect(few.notes.join()).toMatch(/Stopped after 1 files/);
  });
});

describe('the builder never inspects its own output', () => {
  it('leaves out the folders it is told to (the --code directory)', () => {
    const root = mkdtempSync(join(tmpdir(), 'walk-exclude-'));
    mkdirSync(join(root, 'src'));
    // Not named `generated`: that folder is skipped anyway, so it would not prove the exclusion.
    mkdirSync(join(root, 'idempotency', 'code'), { recursive: true });
    writeFileSync(join(root, 'src', 'app.ts'), 'export {};\n');
    writeFileSync(join(root, 'idempotency', 'code', 'cleanup.ts'), 'setInterval(() => {}, 1000);\n');
    const all = walkSourceFiles(root).files.map((f) => f.relPath);
    const without = walkSourceFiles(root, { excludeDirs: [join(root, 'idempotency', 'code')] }).files.map((f) => f.relPath);
    expect(all).toContain('idempotency/code/cleanup.ts');
    expect(without).toEqual(['src/app.ts']);
    rmSync(root, { recursive: true, force: true });
  });
});

describe('inspectCodebase: routes the design can print', () => {
  it('shows Flask converters as {name} (path parameters, not body fields) — the plan refuses angle brackets', async () => {
    const dir = project({
      'requirements.txt': 'flask==3.0.0\n',
      'app.py': [
        'from flask import Flask, request',
        'app = Flask(__name__)',
        '',
        '@app.post("/orders/<int:order_id>/refunds/<path:note>")',
        'def refund(order_id, note):',
        '    amount = request.json["amount"]',
        '    return {"ok": True}, 201',
        '',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    const refund = inspection.endpoints.find((e) => e.method === 'POST');
    expect(refund?.route).toBe('/orders/{order_id}/refunds/{note}');
    expect(refund?.pathParams).toEqual(['order_id', 'note']);
    expect(refund?.bodyFields).not.toContain('order_id');
  });
});

describe('inspectCodebase: Medusa v2 file-based API routes', () => {
  it('src/api/**/route.ts exporting verbs, only in a project that imports @medusajs', async () => {
    const dir = project({
      'package.json': JSON.stringify({ dependencies: { '@medusajs/framework': '^2.0.0', '@medusajs/medusa': '^2.0.0' } }),
      'src/api/store/custom-orders/[id]/refund/route.ts': [
        'import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";',
        'export const GET = async (req: MedusaRequest, res: MedusaResponse) => { res.json({}) };',
        'export const POST = async (req: MedusaRequest, res: MedusaResponse) => {',
        '  const { amount, reason } = req.body as { amount: number; reason: string };',
        '  res.status(201).json({ amount, reason });',
        '};',
        '',
      ].join('\n'),
      // The same path in a project without Medusa is not a route file.
      'tools/src/api/route.ts': 'export const POST = async () => 1;\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(routes(inspection.endpoints)).toEqual(['POST /store/custom-orders/:id/refund @ src/api/store/custom-orders/[id]/refund/route.ts:3']);
    expect(inspection.endpoints[0]?.bodyFields).toEqual(['amount', 'reason']);
  });
});
