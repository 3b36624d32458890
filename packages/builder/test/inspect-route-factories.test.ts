/**
 * Routers built by factories and mounted under a prefix another module defines — the layout of
 * santiq/bulletproof-nodejs: `app.use(config.api.prefix, routes())`, where `routes` builds a
 * Router, passes it to one function per resource (`auth(app)`) and returns it, and the config
 * module's default export holds `api: { prefix: '/api' }`. Before, its routes lacked `/api`.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';

const project = tempProjects('route-factories', {
  'package.json': '{ "name": "x", "dependencies": { "express": "^4.19.2" } }',
  'tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }',
  'src/api/index.ts': "import { Router } from 'express';\nimport orders from './routes/orders';\n\nexport default () => {\n  const app = Router();\n  orders(app);\n  return app;\n};\n",
  'src/api/routes/orders.ts': "import { Router } from 'express';\nconst route = Router();\n\nexport default (app: Router) => {\n  app.use('/orders', route);\n  route.post('/', async (req: any, res: any) => {\n    const { sku } = req.body;\n    res.json({ sku });\n  });\n};\n",
});

const loader = (prefix: string) => `import express from 'express';\nimport routes from '@/api';\nimport config from '@/config';\nconst app = express();\napp.use(${prefix}, routes());\napp.listen(3000);\n`;

describe('router factories and prefixes from config modules', () => {
  it('mounts the router a factory returns under the prefix a config object defines', async () => {
    const dir = project({
      'src/loaders/express.ts': loader('config.api.prefix'),
      'src/config/index.ts': "import dotenv from 'dotenv';\ndotenv.config();\nexport default {\n  port: parseInt(process.env.PORT ?? '3000', 10),\n  api: {\n    prefix: '/api',\n  },\n};\n",
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route}`)).toEqual(['POST /api/orders']);
  });

  it('takes a prefix constant exported by name, and says so when the config reads it from the environment', async () => {
    const named = project({
      'src/loaders/express.ts': "import express from 'express';\nimport routes from '@/api';\nimport { API_PREFIX } from '@/constants';\nconst app = express();\napp.use(API_PREFIX, routes());\n",
      'src/constants.ts': "const VERSION = 'v2';\nexport const API_PREFIX = `/api/${VERSION}`;\n",
    });
    expect((await inspectCodebase(named)).endpoints.map((e) => e.route)).toEqual(['/api/v2/orders']);

    const fromEnv = project({
      'src/loaders/express.ts': loader('config.api.prefix'),
      'src/config/index.ts': 'export default {\n  api: { prefix: process.env.API_PREFIX },\n};\n',
    });
    const inspection = await inspectCodebase(fromEnv);
    expect(inspection.endpoints.map((e) => e.route)).toEqual(['/orders']);
    expect(inspection.notes.join('\n')).toContain('mount prefix `config.api.prefix` is not a literal the inspector could resolve');
  });
});
