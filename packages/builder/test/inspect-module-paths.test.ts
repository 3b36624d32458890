/**
 * Non-relative imports that point into the project: tsconfig/jsconfig `paths` and `baseUrl` (along
 * a local `extends`), and package.json subpath imports. Route files of many Express starters import
 * their controllers as `@controllers/users.controller`; before, such a handler stayed "defined
 * elsewhere" and its fields and writes were never read.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { modulePathsOf } from '../src/inspect/module-paths.js';


const project = tempProjects('module-paths', { 'package.json': '{ "name": "x", "dependencies": { "express": "^4.19.2" } }' });

const controller = "export const create = async (req: any, res: any) => {\n  const { sku, quantity } = req.body;\n  await db.query('INSERT INTO orders (sku, quantity) VALUES ($1, $2)', [sku, quantity]);\n  res.status(201).end();\n};\n";

describe('modulePathsOf', () => {
  const files = new Set(['src/controllers/orders.ts', 'src/config/index.ts', 'apps/api/lib/pay.js', 'src/shared/db.ts']);

  it('maps a wildcard, an exact key and baseUrl as the compiler does, and nothing that reaches no file', () => {
    const paths = modulePathsOf([{ relPath: 'tsconfig.json', text: '{\n  // comments are allowed\n  "compilerOptions": { "baseUrl": "src", "paths": { "@controllers/*": ["controllers/*"], "@config": ["config"], "@/*": ["*"], }, },\n}' }], files, () => undefined);
    expect(paths.candidates('src/routes/a.ts', '@controllers/orders')).toEqual(['src/controllers/orders.ts']);
    expect(paths.candidates('src/routes/a.ts', '@config')).toEqual(['src/config/index.ts']);
    expect(paths.candidates('src/routes/a.ts', '@/shared/db.js')).toEqual(['src/shared/db.ts']);
    // baseUrl alone: `shared/db` is a project file; `express` is a package.
    expect(paths.candidates('src/routes/a.ts', 'shared/db')).toEqual(['src/shared/db.ts']);
    expect(paths.candidates('src/routes/a.ts', 'express')).toBeUndefined();
    expect(paths.candidates('src/routes/a.ts', '@controllers/missing')).toBeUndefined();
  });

  it('prefers the longest matching prefix, inherits paths through a local extends, and takes the nearest config', () => {
    const configs = [
      { relPath: 'tsconfig.base.json', text: '{ "compilerOptions": { "paths": { "@app/*": ["src/*"], "@app/controllers/*": ["src/controllers/*"] } } }' },
      { relPath: 'tsconfig.json', text: '{ "extends": "./tsconfig.base" }' },
      { relPath: 'apps/api/jsconfig.json', text: '{ "compilerOptions": { "paths": { "~/*": ["./lib/*"] } } }' },
    ];
    const paths = modulePathsOf(configs, files, () => undefined);
    expect(paths.candidates('src/routes/a.ts', '@app/controllers/orders')).toEqual(['src/controllers/orders.ts']);
    expect(paths.candidates('apps/api/routes.js', '~/pay')).toEqual(['apps/api/lib/pay.js']);
    // apps/api has its own config: the root's mapping does not apply there.
    expect(paths.candidates('apps/api/routes.js', '@app/controllers/orders')).toBeUndefined();
  });

  it('reaches a monorepo’s own packages by name: their exports map, else main or the subpath itself', () => {
    const monorepo = new Set(['packages/auth/server/index.ts', 'packages/auth/server/routes/pass.ts', 'packages/lib/src/index.ts', 'packages/lib/utils/env.ts', 'packages/db/src/client.ts']);
    const configs = [
      { relPath: 'package.json', text: '{ "name": "monorepo", "private": true, "workspaces": ["packages/*"] }' },
      // No exports: the package's folder answers its subpaths, `main` its bare name.
      { relPath: 'packages/auth/package.json', text: '{ "name": "@acme/auth", "main": "./index.ts" }' },
      { relPath: 'packages/lib/package.json', text: '{ "name": "@acme/lib" }' },
      // An exports map decides alone, conditions included (`types` names the source here).
      { relPath: 'packages/db/package.json', text: '{ "name": "@acme/db", "exports": { ".": { "types": "./src/client.ts", "default": "./dist/client.js" }, "./internal/*": "./src/*.ts" } }' },
    ];
    const paths = modulePathsOf(configs, monorepo, () => undefined);
    expect(paths.candidates('apps/web/server.ts', '@acme/auth/server')).toEqual(['packages/auth/server/index.ts']);
    expect(paths.candidates('apps/web/server.ts', '@acme/auth/server/routes/pass')).toEqual(['packages/auth/server/routes/pass.ts']);
    expect(paths.candidates('apps/web/server.ts', '@acme/lib')).toEqual(['packages/lib/src/index.ts']);
    expect(paths.candidates('apps/web/server.ts', '@acme/lib/utils/env')).toEqual(['packages/lib/utils/env.ts']);
    expect(paths.candidates('apps/web/server.ts', '@acme/db')).toEqual(['packages/db/src/client.ts']);
    expect(paths.candidates('apps/web/server.ts', '@acme/db/internal/client')).toEqual(['packages/db/src/client.ts']);
    // Not exported: unreachable, as Node says.
    expect(paths.candidates('apps/web/server.ts', '@acme/db/src/client')).toBeUndefined();
    expect(paths.candidates('apps/web/server.ts', '@acme/other')).toBeUndefined();
    expect(paths.candidates('apps/web/server.ts', 'hono')).toBeUndefined();
  });

  it("reads package.json subpath imports, also under conditions", () => {
    const paths = modulePathsOf([{ relPath: 'package.json', text: '{ "imports": { "#controllers/*": "./src/controllers/*.js", "#db": { "types": "./src/shared/db.d.ts", "default": "./src/shared/db.js" } } }' }], files, () => undefined);
    expect(paths.candidates('src/routes/a.ts', '#controllers/orders')).toEqual(['src/controllers/orders.ts']);
    expect(paths.candidates('src/routes/a.ts', '#db')).toEqual(['src/shared/db.ts']);
    expect(paths.candidates('src/routes/a.ts', '#nope')).toBeUndefined();
  });
});

describe('handlers and routers behind path mappings', () => {
  it('mounts a router a workspace package exports, under the prefix the app gives it', async () => {
    const found = await inspectCodebase(project({
      'package.json': '{ "name": "monorepo", "private": true, "workspaces": ["apps/*", "packages/*"] }',
      'apps/web/package.json': '{ "name": "@acme/web", "dependencies": { "hono": "^4.6.0", "@acme/auth": "*" } }',
      'apps/web/server/router.ts': "import { Hono } from 'hono';\nimport { auth } from '@acme/auth/server';\nconst app = new Hono();\napp.route('/api/auth', auth);\nexport default app;\n",
      'packages/auth/package.json': '{ "name": "@acme/auth", "dependencies": { "hono": "^4.6.0" } }',
      'packages/auth/server/index.ts': "import { Hono } from 'hono';\nimport { passkeyRoute } from './routes/passkey';\nexport const auth = new Hono().route('/passkey', passkeyRoute);\n",
      // The first route is made on `new Hono()` itself.
      'packages/auth/server/routes/passkey.ts': "import { Hono } from 'hono';\nexport const passkeyRoute = new Hono()\n  /** Authorize. */\n  .post('/authorize', async (c) => c.json(await db.session.create({ data: {} })))\n  .post('/register', async (c) => c.json(await db.passkey.create({ data: {} })));\n",
    }));
    expect(found.endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual(['POST /api/auth/passkey/authorize', 'POST /api/auth/passkey/register']);
  });

  it('reads a controller imported through tsconfig paths, and mounts a router imported through a subpath import', async () => {
    const dir = project({
      'package.json': '{ "name": "x", "type": "module", "imports": { "#routes/*": "./src/routes/*.js" }, "dependencies": { "express": "^4.19.2" } }',
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": "./src", "paths": { "@controllers/*": ["controllers/*"] } } }',
      'src/server.ts': "import express from 'express';\nimport orders from '#routes/orders';\nconst app = express();\napp.use('/api/orders', orders);\napp.listen(3000);\n",
      'src/routes/orders.ts': "import { Router } from 'express';\nimport { create } from '@controllers/orders.controller';\nconst router = Router();\nrouter.post('/', create);\nexport default router;\n",
      'src/controllers/orders.controller.ts': controller,
    });
    const [endpoint] = (await inspectCodebase(dir)).endpoints;
    expect(endpoint).toMatchObject({ method: 'POST', route: '/api/orders', bodyFields: ['sku', 'quantity'], span: { file: 'src/controllers/orders.controller.ts' } });
    expect(endpoint?.cost?.evidence.join(' ')).toContain('src/controllers/orders.controller.ts:3');
  });

  it('leaves an alias that maps outside the project unresolved', async () => {
    const dir = project({
      'tsconfig.json': '{ "compilerOptions": { "paths": { "@shared/*": ["../shared/*"] } } }',
      'src/server.ts': "import express from 'express';\nimport { create } from '@shared/orders';\nconst app = express();\napp.post('/orders', create);\n",
    });
    const [endpoint] = (await inspectCodebase(dir)).endpoints;
    expect(endpoint).toMatchObject({ route: '/orders', bodyFields: [], cost: { evidence: ['the handler is defined elsewhere; assumed to write'] } });
  });
});
