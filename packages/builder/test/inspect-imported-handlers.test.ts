/**
 * Handlers a route imports from another module (the corpus fixtures express-controllers and
 * express-cjs-controllers hold the common layouts with their ground truth). Here: a renamed
 * re-export through a barrel named by its emitted `.js`, and what stays unresolved — a path
 * alias, a missing export — keeping "defined elsewhere" rather than borrowing another function's facts.
 * Also routers mounted by iterating a literal table (node-express-boilerplate's `routes/v1/index.js`).
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('imported-handlers', { 'package.json': '{ "name": "x", "type": "module", "dependencies": { "express": "^4.19.2" } }' });

const server = (routes: string) => `import express from 'express';\nimport router from './routes.js';\nconst app = express();\napp.use(express.json());\napp.use('/api', router);\napp.listen(3000);\n${routes}`;

describe('handlers imported from another module', () => {
  it('follows a renamed re-export through a barrel to the function, and reads its body fields and writes there', async () => {
    const dir = project({
      'src/server.ts': server(''),
      'src/routes.ts': "import { Router } from 'express';\nimport { placeOrder } from './controllers/index.js';\nconst router = Router();\nrouter.post('/orders', placeOrder);\nexport default router;\n",
      'src/controllers/index.ts': "export { create as placeOrder } from './orders.js';\n",
      'src/controllers/orders.ts': "import { db } from '../db.js';\nexport async function create(req: any, res: any) {\n  const { sku, quantity } = req.body;\n  await db.query('INSERT INTO orders (sku, quantity) VALUES ($1, $2)', [sku, quantity]);\n  res.status(201).end();\n}\n",
      'src/db.ts': "import pg from 'pg';\nexport const db = new pg.Pool();\n",
    });
    const [endpoint] = (await inspectCodebase(dir)).endpoints;
    expect(endpoint).toMatchObject({ method: 'POST', route: '/api/orders', bodyFields: ['sku', 'quantity'], span: { file: 'src/controllers/orders.ts', start: 2 } });
    expect(endpoint?.cost?.evidence.join(' ')).toContain('src/controllers/orders.ts:4');
    expect(endpoint).not.toHaveProperty('handlerImport');
  });

  it('reads a controller class: a method or an arrow property of an exported instance, and a static method', async () => {
    const dir = project({
      'src/server.ts': server(''),
      'src/routes.ts': "import { Router } from 'express';\nimport { userController } from './user/userController.js';\nimport { AdminController } from './admin.js';\nconst router = Router();\nrouter.post('/users', userController.createUser);\nrouter.put('/users/:id', userController.renameUser);\nrouter.post('/admin/bans', AdminController.ban);\nexport default router;\n",
      'src/user/userController.ts': "class UserController {\n  createUser = async (req: any, res: any) => {\n    const { email, name } = req.body;\n    res.status(201).json({ email, name });\n  };\n\n  async renameUser(req: any, res: any) {\n    res.json({ name: req.body.name });\n  }\n}\n\nexport const userController = new UserController();\n",
      'src/admin.ts': "export class AdminController {\n  static async ban(req: any, res: any) {\n    const { userId, reason } = req.body;\n    res.json({ userId, reason });\n  }\n}\n",
    });
    const fields = Object.fromEntries((await inspectCodebase(dir)).endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyFields]));
    expect(fields).toEqual({ 'POST /api/users': ['email', 'name'], 'PUT /api/users/:id': ['name'], 'POST /api/admin/bans': ['userId', 'reason'] });
  });

  it('ranks a controller that mails through a provider object as external, and one that only answers res.send as none', async () => {
    const dir = project({
      'src/server.ts': server(''),
      'src/routes.ts': "import { Router } from 'express';\nimport * as auth from './auth.controller.js';\nconst router = Router();\nrouter.post('/password-reset', auth.requestReset);\nrouter.post('/echo', auth.echo);\nexport default router;\n",
      'src/auth.controller.ts': "import { emailProvider } from './email.js';\nexport const requestReset = async (req: any, res: any) => {\n  emailProvider.sendPasswordReset({ email: req.body.email });\n  res.send('ok');\n};\nexport const echo = async (req: any, res: any) => {\n  res.send(req.body.text);\n};\n",
      'src/email.ts': 'export const emailProvider = { sendPasswordReset: (input: unknown) => console.log(input) };\n',
    });
    const costs = Object.fromEntries((await inspectCodebase(dir)).endpoints.map((e) => [e.route, e.cost]));
    expect(costs['/api/password-reset']).toEqual({ level: 'external', evidence: ['sends or calls out: `emailProvider.sendPasswordReset(` (src/auth.controller.ts:3)'] });
    expect(costs['/api/echo']?.level).toBe('none');
  });

  it('leaves a handler behind a path alias no tsconfig maps, or a missing export, unresolved, and says so', async () => {
    const dir = project({
      'src/server.ts': server(''),
      'src/routes.ts': "import { Router } from 'express';\nimport { refund } from '@/controllers/payments';\nimport { charge } from './controllers/payments.js';\nconst router = Router();\nrouter.post('/refunds', refund);\nrouter.post('/charges', charge);\nexport default router;\n",
      // `charge` is not exported here: the inspector must not take `refund`'s facts for it.
      'src/controllers/payments.ts': "export const refund = async (req: any, res: any) => {\n  const { amount } = req.body;\n  res.json({ amount });\n};\n",
    });
    const endpoints = (await inspectCodebase(dir)).endpoints;
    for (const route of ['/api/refunds', '/api/charges']) {
      const endpoint = endpoints.find((e) => e.route === route);
      expect(endpoint, route).toMatchObject({ bodyFields: [], cost: { level: 'write', evidence: ['the handler is defined elsewhere; assumed to write'] } });
      expect(endpoint?.span, route).toBeUndefined();
    }
  });
});

describe('routers mounted from a table', () => {
  it('mounts routers listed in a table and iterated with for…of over destructured rows; a row whose path is not a literal mounts nothing', async () => {
    const dir = project({
      'src/server.ts': "import express from 'express';\nimport { orders } from './orders.js';\nimport { refunds } from './refunds.js';\nconst app = express();\nconst table = [{ path: '/orders', router: orders }, { path: process.env.REFUNDS_PATH, router: refunds }];\nfor (const { path, router } of table) app.use(path, router);\napp.listen(3000);\n",
      'src/orders.ts': "import { Router } from 'express';\nexport const orders = Router();\norders.post('/', async (req: any, res: any) => { res.json(req.body.sku); });\n",
      'src/refunds.ts': "import { Router } from 'express';\nexport const refunds = Router();\nrefunds.post('/', async (req: any, res: any) => { res.json(req.body.amount); });\n",
    });
    const routes = (await inspectCodebase(dir)).endpoints.map((e) => e.route).sort();
    // The refunds router's prefix is not in the code: it is shown unmounted rather than under a guessed path.
    expect(routes).toEqual(['/', '/orders']);
  });
});
