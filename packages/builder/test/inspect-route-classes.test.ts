/**
 * Routes declared inside classes — the layout of ljlm0402/typescript-express-starter and the many
 * starters built from it: `class UserRoute { path = '/users'; router = Router(); user = new
 * UserController(); initializeRoutes() { this.router.post(`${this.path}`, validate(CreateUserDto),
 * this.user.createUser) } }`. Before, none of its six mutating routes was found. Also chained Hono
 * routes (`new Hono().get(…).post(…)`) and webhooks named only by their mount.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';

const temp = tempProjects('route-classes');
const project = (dependencies: Record<string, string>, files: Record<string, string>): string =>
  temp({ 'package.json': JSON.stringify({ name: 'x', dependencies }), ...files });

describe('route classes', () => {
  it('finds routes on a router member, spells their paths from members and reads the controller member and the validated DTO', async () => {
    const dir = project({ express: '^4.19.2', 'class-validator': '^0.14.0' }, {
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": "src", "paths": { "@controllers/*": ["controllers/*"], "@dtos/*": ["dtos/*"] } } }',
      'src/routes/orders.route.ts': [
        "import { Router } from 'express';",
        "import { OrderController } from '@controllers/orders.controller';",
        "import { CreateOrderDto } from '@dtos/orders.dto';",
        'const API = "/v1";',
        'export class OrderRoute {',
        "  public path = API + '/orders';",
        '  public router: Router;',
        '  public orders = new OrderController();',
        '  constructor() {',
        '    this.router = Router();',
        '    this.initializeRoutes();',
        '  }',
        '  private initializeRoutes() {',
        '    this.router.post(`${this.path}`, validationMiddleware(CreateOrderDto), this.orders.createOrder);',
        '    this.router.delete(`${this.path}/:id(\\\\d+)`, this.orders.cancelOrder.bind(this.orders));',
        '    this.router.post(`${this.path}/:id/notes`, this.addNote.bind(this));',
        '    this.router.put(`${this.path}/${process.env.SLUG}`, this.addNote);',
        '  }',
        '  private addNote = async (req: any, res: any) => {',
        '    const { text } = req.body;',
        '    res.json({ text });',
        '  };',
        '}',
        '',
      ].join('\n'),
      'src/controllers/orders.controller.ts': [
        'export class OrderController {',
        '  public createOrder = async (req: any, res: any) => {',
        '    const order = req.body;',
        "    await db.query('INSERT INTO orders (sku, quantity) VALUES ($1, $2)', [order.sku, order.quantity]);",
        '    res.status(201).json(order);',
        '  };',
        '  public async cancelOrder(req: any, res: any) {',
        "    await db.query('DELETE FROM orders WHERE id = $1', [req.params.id]);",
        '    res.status(204).end();',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/dtos/orders.dto.ts': "import { IsInt, IsString } from 'class-validator';\nexport class CreateOrderDto {\n  @IsString()\n  public sku: string;\n  @IsInt()\n  public quantity: number;\n}\n",
    });
    const inspection = await inspectCodebase(dir);
    const byRoute = Object.fromEntries(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e]));
    // The PUT's path holds an environment variable: it is not spelled out, so it is not guessed.
    expect(Object.keys(byRoute).sort()).toEqual(['DELETE /v1/orders/:id', 'POST /v1/orders', 'POST /v1/orders/:id/notes']);
    expect(byRoute['POST /v1/orders']).toMatchObject({ bodyFields: ['sku', 'quantity'], span: { file: 'src/controllers/orders.controller.ts', start: 2 } });
    expect(byRoute['POST /v1/orders']?.cost?.evidence.join(' ')).toContain('src/controllers/orders.controller.ts:4');
    expect(byRoute['DELETE /v1/orders/:id']?.span).toMatchObject({ file: 'src/controllers/orders.controller.ts', start: 7 });
    expect(byRoute['POST /v1/orders/:id/notes']).toMatchObject({ bodyFields: ['text'], span: { start: 19 } });
  });

  it('does not take a class member that is no router for one', async () => {
    const dir = project({ express: '^4.19.2' }, {
      'src/client.ts': "import express from 'express';\nexport class Api {\n  private http = makeClient();\n  save() { return this.http.post('/orders', (x: unknown) => x); }\n}\n",
    });
    expect((await inspectCodebase(dir)).endpoints).toEqual([]);
  });
});

describe('chained Hono routes and webhooks named by their mount', () => {
  it('finds every route of a chain on a new app or an app variable, with the mount prefix, and flags the mounted webhooks', async () => {
    const dir = project({ hono: '^4.6.0' }, {
      'src/items.ts': "import { Hono } from 'hono';\nconst items = new Hono()\n  .get('/', (c) => c.json([]))\n  .post('/', async (c) => {\n    const { sku, qty } = await c.req.json();\n    await db.insert({ sku, qty });\n    return c.json({});\n  })\n  .delete('/:id', async (c) => c.json({}));\nexport default items;\n",
      'src/hooks.ts': "import { Hono } from 'hono';\nconst hooks = new Hono();\nhooks.post('/stripe', async (c) => c.json({})).post('/plaid', async (c) => c.json({}));\nexport default hooks;\n",
      'src/app.ts': "import { Hono } from 'hono';\nimport items from './items';\nimport hooks from './hooks';\nconst app = new Hono().basePath('/api');\napp.route('/items', items);\napp.route('/webhooks', hooks);\nexport default app;\n",
    });
    const endpoints = (await inspectCodebase(dir)).endpoints;
    const found = Object.fromEntries(endpoints.map((e) => [`${e.method} ${e.route}`, e.webhook]));
    expect(found).toEqual({ 'POST /api/items': false, 'DELETE /api/items/:id': false, 'POST /api/webhooks/stripe': true, 'POST /api/webhooks/plaid': true });
    expect(endpoints.find((e) => e.route === '/api/items')?.bodyFields).toEqual(['sku', 'qty']);
  });
});
