/**
 * NestJS paths as served: URI versioning (`enableVersioning`), only when the versioning is URI;
 * paths in constants and imported route tables; path arrays; `RouterModule` paths; one global
 * prefix per app of a monorepo; `setGlobalPrefix` exclusions. The corpus fixture nest-versioned
 * holds a whole app with its ground truth.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('nest-routing', { 'package.json': '{ "name": "x", "dependencies": { "@nestjs/common": "^10.0.0", "@nestjs/core": "^10.0.0" } }' });

const main = (setup: string, imports = "import { VersioningType } from '@nestjs/common';") =>
  `${imports}\nimport { NestFactory } from '@nestjs/core';\nimport { AppModule } from './app.module';\nasync function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n${setup}\n  await app.listen(3000);\n}\nvoid bootstrap();\n`;

const ordersController = `import { Body, Controller, Delete, Param, Post, Version } from '@nestjs/common';
@Controller('orders')
export class OrdersController {
  @Post()
  create(@Body() body: { sku: string }) { return this.orders.save(body); }

  @Version('2')
  @Delete(':id')
  remove(@Param('id') id: string) { return this.orders.delete(id); }
}
`;

async function routes(files: Record<string, string>): Promise<string[]> {
  const inspection = await inspectCodebase(project(files));
  return inspection.endpoints.map((e) => `${e.method} ${e.route}`).sort();
}

describe('NestJS versioning', () => {
  it('serves every route without a version of its own under the default URI version, after the global prefix', async () => {
    const found = await routes({
      'src/main.ts': main("  app.setGlobalPrefix('api');\n  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });"),
      'src/orders.controller.ts': ordersController,
    });
    expect(found).toEqual(['DELETE /api/v2/orders/:id', 'POST /api/v1/orders']);
  });

  it('follows the prefix option, VERSION_NEUTRAL, default arrays and a controller version', async () => {
    const found = await routes({
      'src/main.ts': main("  app.enableVersioning({ type: VersioningType.URI, prefix: false, defaultVersion: ['1', VERSION_NEUTRAL] });", "import { VERSION_NEUTRAL, VersioningType } from '@nestjs/common';"),
      'src/orders.controller.ts': ordersController,
      'src/refunds.controller.ts': "import { Controller, Post } from '@nestjs/common';\n@Controller({ path: 'refunds', version: '3' })\nexport class RefundsController {\n  @Post()\n  refund() { return this.refunds.save({}); }\n}\n",
    });
    expect(found).toEqual(['DELETE /2/orders/:id', 'POST /1/orders', 'POST /3/refunds', 'POST /orders']);
  });

  it('adds no version segment when versioning is by header, or not enabled at all', async () => {
    const byHeader = await routes({
      'src/main.ts': main("  app.enableVersioning({ type: VersioningType.HEADER, header: 'X-API-Version', defaultVersion: '1' });"),
      'src/orders.controller.ts': ordersController,
    });
    expect(byHeader).toEqual(['DELETE /orders/:id', 'POST /orders']);
    const notEnabled = await routes({ 'src/main.ts': main(''), 'src/orders.controller.ts': ordersController });
    expect(notEnabled).toEqual(['DELETE /orders/:id', 'POST /orders']);
  });
});

describe('NestJS paths', () => {
  it('reads paths from same-file constants, object properties and enums', async () => {
    const found = await routes({
      'src/coupons.controller.ts': `import { Controller, Post } from '@nestjs/common';
const root = 'coupons';
const paths = { redeem: \`\${root}/:code/redeem\` };
enum Actions { Void = 'void' }
@Controller(root)
export class CouponsController {
  @Post(paths.redeem) redeem() { return this.coupons.save({}); }
  @Post(Actions.Void) cancel() { return this.coupons.save({}); }
}
`,
    });
    expect(found).toEqual(['POST /coupons/coupons/:code/redeem', 'POST /coupons/void']);
  });

  it('looks up an imported route table in the module that exports it, through a tsconfig path alias', async () => {
    const found = await routes({
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@config/*": ["src/config/*"] } } }',
      'src/config/app.routes.ts': "const usersRoot = 'users';\nexport const routesV1 = { version: 'v1', user: { root: usersRoot, delete: `/${usersRoot}/:id` } };\n",
      'src/users/users.controller.ts': `import { Controller, Delete, Post } from '@nestjs/common';
import { routesV1 } from '@config/app.routes';
@Controller(routesV1.version)
export class UsersController {
  @Post(routesV1.user.root) create() { return this.users.save({}); }
  @Delete(routesV1.user.delete) remove() { return this.users.delete({}); }
}
`,
    });
    expect(found).toEqual(['DELETE /v1/users/:id', 'POST /v1/users']);
  });

  it('leaves out, with a note, a route whose path it cannot spell rather than showing it at /', async () => {
    const inspection = await inspectCodebase(project({
      'src/users.controller.ts': `import { Controller, Post } from '@nestjs/common';
import { routeFor } from './paths';
@Controller('users')
export class UsersController {
  @Post(routeFor('create')) create() { return this.users.save({}); }
  @Post(missing.path) other() { return this.users.save({}); }
}
`,
    }));
    expect(inspection.endpoints).toEqual([]);
    expect(inspection.notes.join('\n')).toContain("src/users.controller.ts:5: POST path `routeFor('create')` is not a string the inspector could spell");
    expect(inspection.notes.join('\n')).toContain('src/users.controller.ts:6: POST path `missing.path`');
  });

  it('serves a route at every combination of controller and method paths', async () => {
    const found = await routes({
      'src/orders.controller.ts': "import { Controller, Post } from '@nestjs/common';\n@Controller(['orders', 'purchases'])\nexport class OrdersController {\n  @Post(['create', 'new'])\n  create() { return this.orders.save({}); }\n}\n",
    });
    expect(found).toEqual(['POST /orders/create', 'POST /orders/new', 'POST /purchases/create', 'POST /purchases/new']);
  });
});

describe('NestJS prefixes', () => {
  it('gives the controllers of a module the path RouterModule registers it at, children below their parent', async () => {
    const found = await routes({
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { AdminModule } from './admin/admin.module';
import { ReportsModule } from './admin/reports/reports.module';
@Module({
  imports: [AdminModule, ReportsModule, RouterModule.register([{ path: 'admin', module: AdminModule, children: [{ path: 'reports', module: ReportsModule }] }])],
})
export class AppModule {}
`,
      'src/admin/admin.module.ts': "import { Module } from '@nestjs/common';\nimport { UsersController } from './users.controller';\n@Module({ controllers: [UsersController] })\nexport class AdminModule {}\n",
      'src/admin/users.controller.ts': "import { Controller, Post } from '@nestjs/common';\n@Controller('users')\nexport class UsersController {\n  @Post()\n  create() { return this.users.save({}); }\n}\n",
      'src/admin/reports/reports.module.ts': "import { Module } from '@nestjs/common';\nimport { ReportsController } from './reports.controller';\n@Module({ controllers: [ReportsController] })\nexport class ReportsModule {}\n",
      'src/admin/reports/reports.controller.ts': "import { Controller, Post } from '@nestjs/common';\n@Controller()\nexport class ReportsController {\n  @Post('export')\n  export() { return this.reports.save({}); }\n}\n",
    });
    expect(found).toEqual(['POST /admin/reports/export', 'POST /admin/users']);
  });

  it('applies each app’s global prefix to its own controllers only in a monorepo', async () => {
    const controller = "import { Body, Controller, Post } from '@nestjs/common';\n@Controller('things')\nexport class ThingsController {\n  @Post()\n  create(@Body() dto: any) { return this.things.save(dto); }\n}\n";
    const found = await routes({
      'apps/admin/src/main.ts': main("  app.setGlobalPrefix('admin-api');", ''),
      'apps/admin/src/things.controller.ts': controller,
      'apps/shop/src/main.ts': main("  app.setGlobalPrefix('shop-api');", ''),
      'apps/shop/src/things.controller.ts': controller,
    });
    expect(found).toEqual(['POST /admin-api/things', 'POST /shop-api/things']);
  });

  it('serves the routes setGlobalPrefix excludes without the prefix, by path and method', async () => {
    const found = await routes({
      'src/main.ts': main("  app.setGlobalPrefix('api', { exclude: [{ path: 'hooks/stripe', method: RequestMethod.POST }, 'health', 'legacy/(.*)'] });", "import { RequestMethod } from '@nestjs/common';"),
      'src/hooks.controller.ts': `import { Controller, Delete, Post } from '@nestjs/common';
@Controller()
export class HooksController {
  @Post('hooks/stripe') stripe() { return this.events.save({}); }
  @Delete('hooks/stripe') forget() { return this.events.delete({}); }
  @Post('health') ping() { return this.health.save({}); }
  @Post('legacy/orders') legacy() { return this.orders.save({}); }
  @Post('orders') create() { return this.orders.save({}); }
}
`,
    });
    expect(found).toEqual(['DELETE /api/hooks/stripe', 'POST /api/orders', 'POST /health', 'POST /hooks/stripe', 'POST /legacy/orders']);
  });

  it('reads a global prefix from ConfigService through its registerAs namespace, and an environment default, saying so', async () => {
    const configured = await inspectCodebase(project({
      'src/main.ts': main("  const config = app.get(ConfigService);\n  app.setGlobalPrefix(config.getOrThrow('app.apiPrefix', { infer: true }), { exclude: ['/'] });", "import { ConfigService } from '@nestjs/config';"),
      'src/config/app.config.ts': "import { registerAs } from '@nestjs/config';\nexport default registerAs('app', () => {\n  const port = Number(process.env.PORT);\n  return { port, apiPrefix: process.env.API_PREFIX || 'api', docs: { path: 'docs' } };\n});\n",
      'src/orders.controller.ts': ordersController,
    }));
    expect(configured.endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual(['DELETE /api/orders/:id', 'POST /api/orders']);
    expect(configured.notes).toContain("src/main.ts:7: global prefix `config.getOrThrow('app.apiPrefix', { infer: true })` is 'api', the default of the environment variable API_PREFIX; the routes change if the environment sets another.");

    const fromEnv = await inspectCodebase(project({ 'src/main.ts': main("  app.setGlobalPrefix(process.env.GLOBAL_PREFIX ?? 'v2');"), 'src/orders.controller.ts': ordersController }));
    expect(fromEnv.endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual(['DELETE /v2/orders/:id', 'POST /v2/orders']);
    expect(fromEnv.notes.some((note) => note.includes('the default of the environment variable GLOBAL_PREFIX'))).toBe(true);
  });

  it('notes a global prefix it cannot resolve instead of dropping it silently', async () => {
    const unknown = await inspectCodebase(project({ 'src/main.ts': main('  app.setGlobalPrefix(computePrefix());'), 'src/orders.controller.ts': ordersController }));
    expect(unknown.endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual(['DELETE /orders/:id', 'POST /orders']);
    expect(unknown.notes).toContain('src/main.ts:6: global prefix `computePrefix()` is not a value the inspector could resolve; the NestJS routes are shown without it.');
  });
});
