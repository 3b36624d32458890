/**
 * Koa (@koa/router, koa-router): routes with their full paths as Koa serves them — a router's own
 * prefix inside every prefix it is mounted under, named routes, routers mounted and exported as
 * their `.routes()`, koa-mount, loops over routers — the body a handler reads of
 * `ctx.request.body` (never `ctx.body`, the response), the principal read on `ctx.state`, and the
 * route's registration for the generated wiring. Before, a Koa app had no routes at all.
 */
import { describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';
import { tempProjects } from './support/temp-project.js';

const project = tempProjects('koa-routes', {
  'package.json': '{ "name": "shop", "dependencies": { "koa": "^2.15.3", "@koa/router": "^13.1.0", "koa-mount": "^4.0.0" } }',
});

const routes = async (dir: string) => (await inspectCodebase(dir)).endpoints.map((e) => `${e.method} ${e.route}`).sort();

describe('Koa routes and their full paths', () => {
  it('is the stack, and puts a router’s own prefix after the prefixes it is mounted under', async () => {
    const dir = project({
      'src/app.ts': "import Koa from 'koa';\nimport api from './routes';\nconst app = new Koa();\napp.use(api.routes()).use(api.allowedMethods());\napp.listen(3000);\n",
      'src/routes/index.ts': "import Router from '@koa/router';\nimport users from './users';\nimport { billing } from './billing';\nconst api = new Router({ prefix: '/api' });\napi.use('/v1', users.routes(), users.allowedMethods());\napi.use(billing.routes());\nexport default api;\n",
      'src/routes/users.ts': "import Router from '@koa/router';\nconst router = new Router({ prefix: '/users' });\nrouter.post('users.create', '/', async (ctx) => { ctx.body = ctx.request.body; });\nrouter.del('/:id', async (ctx) => { ctx.status = 204; });\nexport default router;\n",
      'src/routes/billing.ts': "import Router from '@koa/router';\nexport const billing = new Router();\nbilling.prefix('/billing');\nbilling.put('/plan', async (ctx) => { ctx.body = { plan: ctx.request.body.plan }; });\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.framework?.value).toBe('koa');
    expect(await routes(dir)).toEqual(['DELETE /api/v1/users/:id', 'POST /api/v1/users', 'PUT /api/billing/plan']);
  });

  it('follows routers exported as their middleware, listed in a loop, chained after .param(), made without new, and mounted with koa-mount', async () => {
    const dir = project({
      'src/server.js': "const Koa = require('koa');\nconst mount = require('koa-mount');\nconst api = require('./routes');\nconst legacy = require('./legacy');\nconst app = new Koa();\napp.use(api.routes());\napp.use(mount('/legacy', legacy));\n",
      'src/routes/index.js': "const Router = require('koa-router');\nconst teams = require('./teams');\nconst invites = require('./invites');\nconst api = new Router();\napi.prefix('/api/v2');\nfor (const router of [teams]) api.use(router.routes(), router.allowedMethods());\napi.use('/invites', invites);\nmodule.exports = api;\n",
      'src/routes/teams.js': "const router = require('koa-router')();\nrouter\n  .param('teamId', async (id, ctx, next) => next())\n  .get('/teams/:teamId', async (ctx) => {})\n  .post('/teams', async (ctx) => { ctx.status = 201; });\nmodule.exports = router;\n",
      'src/routes/invites.js': "const Router = require('koa-router');\nconst router = new Router();\nrouter.post('/:token/accept', async (ctx) => { ctx.status = 204; });\nmodule.exports = router.routes();\n",
      'src/legacy.js': "const Router = require('koa-router');\nconst router = new Router();\nrouter.post('/signup', async (ctx) => { ctx.status = 201; });\nmodule.exports = router.middleware();\n",
    });
    expect(await routes(dir)).toEqual(['POST /api/v2/invites/:token/accept', 'POST /api/v2/teams', 'POST /legacy/signup']);
  });

  it('says when a router’s prefix is not written down, instead of guessing it', async () => {
    const dir = project({
      'src/app.ts': "import Koa from 'koa';\nimport Router from '@koa/router';\nconst router = new Router({ prefix: process.env.API_BASE });\nrouter.post('/orders', async (ctx) => { ctx.status = 201; });\nconst app = new Koa();\napp.use(router.routes());\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.map((e) => e.route)).toEqual(['/orders']);
    expect(inspection.notes.join('\n')).toContain('`process.env.API_BASE` is not a literal the inspector could resolve');
  });
});

describe('what a Koa handler reads', () => {
  const dir = project({
    'src/app.ts': "import Koa from 'koa';\nimport Router from '@koa/router';\nimport { createOrder, updateOrder, refund } from './orders';\nconst router = new Router();\nrouter.post('/orders', createOrder);\nrouter.patch('/orders/:id', auth, updateOrder);\nrouter.post('/orders/:id/refunds', refund);\nconst app = new Koa();\napp.use(router.routes());\nasync function auth(ctx: any, next: any) { await next(); }\n",
    'src/orders.ts': [
      "import type { Context } from 'koa';",
      "import { db } from './db';",
      "import type { RefundDto } from './refund.dto';",
      'export async function createOrder(ctx: Context) {',
      '  const order = await db.order.create({ data: { sku: ctx.request.body.sku, quantity: ctx.request.body.quantity, userId: ctx.state.user.id } });',
      '  ctx.body = { id: order.id, total: order.total };',
      '}',
      'export async function updateOrder(ctx: Context) {',
      '  const { body } = ctx.request;',
      '  const { user } = ctx.state;',
      '  await db.order.update({ where: { id: ctx.params.id, ownerEmail: user.email }, data: { note: body.note } });',
      '  ctx.body = { ok: true };',
      '}',
      'export async function refund(ctx: Context) {',
      '  const dto = ctx.request.body as RefundDto;',
      '  await db.refund.create({ data: { orderId: ctx.params.id, amount: dto.amount } });',
      '  ctx.status = 201;',
      '}',
      '',
    ].join('\n'),
    'src/refund.dto.ts': 'export class RefundDto {\n  amount!: number;\n  reason!: string;\n}\n',
    'src/db.ts': 'export const db: any = {};\n',
  });

  it('takes fields from ctx.request.body (as it is, destructured, or as a DTO), never from ctx.body, the response', async () => {
    const inspection = await inspectCodebase(dir);
    const byRoute = new Map(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e]));
    expect(byRoute.get('POST /orders')?.bodyFields).toEqual(['sku', 'quantity']);
    expect(byRoute.get('PATCH /orders/:id')?.bodyFields).toEqual(['note']);
    expect(byRoute.get('POST /orders/:id/refunds')).toMatchObject({ bodyType: 'RefundDto', bodyFields: ['amount', 'reason'] });
  });

  it('reads the principal on ctx.state, an id before an e-mail address, and where it is read', async () => {
    const inspection = await inspectCodebase(dir);
    expect(inspection.principal).toMatchObject({ value: 'ctx.state.user.id', location: 'src/orders.ts:5' });
  });

  it('keeps each route’s registration, split where the middleware goes: right before the handler', async () => {
    const inspection = await inspectCodebase(dir);
    const patch = inspection.endpoints.find((e) => e.method === 'PATCH');
    expect(patch?.registration).toEqual({ before: "router.patch('/orders/:id', auth, ", after: 'updateOrder)' });
  });

  it('reports idempotency middleware already on a route as existing protection', async () => {
    const guarded = project({
      'src/app.ts': "import Koa from 'koa';\nimport Router from '@koa/router';\nimport { idempotent } from './idempotency';\nconst router = new Router();\nrouter.post('/payments', idempotent.createPayment, async (ctx) => { ctx.status = 201; });\nnew Koa().use(router.routes());\n",
    });
    const inspection = await inspectCodebase(guarded);
    expect(inspection.endpoints[0]?.protection).toBe('middleware idempotent.createPayment (src/app.ts:5)');
    expect(inspection.existingProtection).toContainEqual(expect.objectContaining({ kind: 'idempotency-key', evidence: 'POST /payments: the route runs the middleware “idempotent.createPayment”' }));
  });
});
