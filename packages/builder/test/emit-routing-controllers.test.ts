/**
 * routing-controllers end to end: the inspector reads a `@JsonController` app served with a
 * `routePrefix`, the builder writes express.ts with each action's `@UseBefore` wiring, and a real
 * routing-controllers + Express app wired that way runs one side effect per key — concurrent
 * duplicates included — replays a retry and refuses a changed body. routing-controllers runs
 * `@UseBefore` middleware before its own body parser and `@Authorized` check
 * (ExpressDriver.registerAction), which is what the wiring and the runtime have to hold up against.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAgainstArtifacts } from '../src/check/artifact-claims.js';
import { buildDesign } from '../src/design/build-design.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { collectAnswers } from '../src/questions/collect-answers.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { GENERATED_AT } from './fixtures.js';
import { runGeneratedVitest } from './support/generated-vitest.js';
import { tempProjects } from './support/temp-project.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const CONTROLLER = `import { Authorized, Body, BodyParam, Controller, CurrentUser, Delete, JsonController, Param, Post, Put } from 'routing-controllers';
import { IsEmail, IsNotEmpty } from 'class-validator';
import { UserService } from '../services/user-service';

class BaseUser {
  @IsNotEmpty() public firstName: string;
  @IsEmail() public email: string;
}
class CreateUserBody extends BaseUser {
  @IsNotEmpty() public password: string;
}

@Authorized()
@JsonController('/users')
export class UserController {
  constructor(private users: UserService) {}
  @Post()
  public create(@Body() body: CreateUserBody) { return this.users.create(body); }
  @Put('/:id')
  public update(@Param('id') id: string, @Body() body: BaseUser) { return this.users.update(id, body); }
  @Delete('/:id')
  public delete(@Param('id') id: string) { return this.users.delete(id); }
}

@Controller('/invites')
export class InviteController {
  constructor(private users: UserService) {}
  @Post('/:code/accept')
  public accept(@Param('code') code: string, @BodyParam('name') name: string, @CurrentUser() user: { id: string }) { return this.users.accept(code, name, user.id); }
}
`;

const project = tempProjects('routing-controllers', {
  'package.json': '{ "name": "accounts", "dependencies": { "express": "^4.21.0", "routing-controllers": "^0.11.3", "class-validator": "^0.14.1", "typeorm": "^0.3.0", "pg": "^8.0.0" } }',
  'src/services/user-service.ts': "import { Repository } from 'typeorm';\nexport class UserService {\n  constructor(private repo: Repository<any>) {}\n  create(user: any) { return this.repo.save(user); }\n  update(id: string, user: any) { return this.repo.save({ ...user, id }); }\n  delete(id: string) { return this.repo.delete(id); }\n  accept(code: string, name: string, userId: string) { return this.repo.save({ code, name, userId }); }\n}\n",
  'src/api/controllers/user-controller.ts': CONTROLLER,
});

const SERVER_LITERAL = "import { createExpressServer } from 'routing-controllers';\nimport { UserController } from './api/controllers/user-controller';\nexport const app = createExpressServer({ routePrefix: '/api', controllers: [UserController] });\n";

describe('routing-controllers actions', () => {
  it('are reported at the routePrefix, the controller prefix and the action path, with the body the DTO and @BodyParam declare', async () => {
    const inspection = await inspectCodebase(project({ 'src/app.ts': SERVER_LITERAL }));
    const routes = inspection.endpoints.map((e) => `${e.method} ${e.route} ${e.framework} [${e.bodyFields.join(',')}]`).sort();
    expect(routes).toEqual([
      'DELETE /api/users/:id express []',
      'POST /api/invites/:code/accept express [name]',
      'POST /api/users express [firstName,email,password]',
      'PUT /api/users/:id express [firstName,email]',
    ]);
  });

  it('takes a routePrefix from a constant, states an environment default, and notes one it cannot read', async () => {
    const constant = await inspectCodebase(project({
      'src/config.ts': "export const config = { api: { prefix: '/v2' } };\n",
      'src/app.ts': "import express from 'express';\nimport { useExpressServer } from 'routing-controllers';\nimport { config } from './config';\nconst app = express();\nuseExpressServer(app, { routePrefix: config.api.prefix, controllers: [__dirname + '/api/controllers/*.ts'] });\n",
    }));
    expect(constant.endpoints.map((e) => e.route)).toContain('/v2/users');
    const fromEnv = await inspectCodebase(project({ 'src/app.ts': "import { createExpressServer } from 'routing-controllers';\nexport const app = createExpressServer({ routePrefix: process.env.APP_ROUTE_PREFIX || '/api', controllers: [__dirname + '/api/controllers/*.ts'] });\n" }));
    expect(fromEnv.endpoints.map((e) => e.route)).toContain('/api/users');
    expect(fromEnv.notes.join('\n')).toMatch(/routePrefix `process\.env\.APP_ROUTE_PREFIX \|\| '\/api'` is '\/api', the default of the environment variable APP_ROUTE_PREFIX/);
    const unknown = await inspectCodebase(project({ 'src/app.ts': "import { createExpressServer } from 'routing-controllers';\nimport { getOsEnv } from './env';\nexport const app = createExpressServer({ routePrefix: getOsEnv('APP_ROUTE_PREFIX'), controllers: [__dirname + '/api/controllers/*.ts'] });\n" }));
    expect(unknown.endpoints.map((e) => e.route)).toContain('/users');
    expect(unknown.notes.join('\n')).toContain("mount prefix `getOsEnv('APP_ROUTE_PREFIX')` is not a literal the inspector could resolve");
  });

  it('serves on Koa when the app does, and a NestJS @Controller stays NestJS', async () => {
    const koa = await inspectCodebase(project({
      'package.json': '{ "name": "accounts", "dependencies": { "koa": "^2.15.0", "routing-controllers": "^0.11.3" } }',
      'src/app.ts': "import { createKoaServer } from 'routing-controllers';\nimport { UserController } from './api/controllers/user-controller';\nexport const app = createKoaServer({ routePrefix: '/api', controllers: [UserController] });\n",
    }));
    expect(koa.endpoints.find((e) => e.route === '/api/users')?.framework).toBe('koa');
    const nest = await inspectCodebase(project({
      'package.json': '{ "name": "shop", "dependencies": { "@nestjs/core": "^10.0.0", "@nestjs/common": "^10.0.0" } }',
      'src/api/controllers/user-controller.ts': "import { Body, Controller, Post } from '@nestjs/common';\n@Controller('orders')\nexport class OrdersController {\n  @Post()\n  create(@Body() dto: { sku: string }) { return dto; }\n}\n",
    }));
    expect(nest.endpoints.map((e) => `${e.framework} ${e.route}`)).toEqual(['nestjs /orders']);
  });
});

async function generated() {
  // No database driver: the generated store is SQLite, on a file this test names.
  const dir = project({ 'src/app.ts': SERVER_LITERAL, 'package.json': '{ "name": "accounts", "dependencies": { "express": "^4.21.0", "routing-controllers": "^0.11.3", "class-validator": "^0.14.1" } }' });
  const { answers } = await collectAnswers({ inspect: () => inspectCodebase(dir) });
  const model = buildDesign(answers, { generatedAt: GENERATED_AT });
  return { model, file: (path: string) => model.artifacts.find((a) => a.path === path)?.content ?? '' };
}

/** Both usage programs: listen on a free port, close after the file, and POST /api/users as user usr_1. */
const LISTEN_AND_CLIENT = `const server: Server = app.listen(0);
const base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const create = (key: string, email: string) => fetch(\`\${base}/api/users\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-user': 'usr_1' },
  body: JSON.stringify({ firstName: 'Ana', email, password: 'secret' }),
});`;

/**
 * A routing-controllers app on its own Express, wired as express.ts says. Decorators are applied
 * as the calls TypeScript emits for them, so the file needs no decorator transform.
 */
const USAGE = `import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Body, createExpressServer, JsonController, Post, UseBefore } from 'routing-controllers';
import { afterAll, describe, expect, it } from 'vitest';
import { idempotent } from './express.js';

let runs = 0;
class UserController {
  async create(body: { firstName: string; email: string; password: string }) {
    runs += 1;
    await new Promise((done) => setTimeout(done, 150));
    return { run: runs, email: body.email };
  }
}
const authenticate = (req: { headers: Record<string, unknown>; user?: { id: string } }, _res: unknown, next: () => void) => {
  const user = req.headers['x-user'];
  if (typeof user === 'string') req.user = { id: user };
  next();
};
const method = Object.getOwnPropertyDescriptor(UserController.prototype, 'create')!;
Body()(UserController.prototype, 'create', 0);
for (const decorate of [UseBefore(authenticate, idempotent.createUser), Post()]) decorate(UserController.prototype, 'create', method);
JsonController('/users')(UserController);

const app = createExpressServer({ routePrefix: '/api', controllers: [UserController] });
${LISTEN_AND_CLIENT}

describe('express.ts on routing-controllers', () => {
  it('runs concurrent duplicates of one key once, replays a retry and refuses a changed body', async () => {
    const duplicates = await Promise.all(Array.from({ length: 5 }, () => create('k-1', 'ana@example.com')));
    expect(runs).toBe(1);
    const statuses = duplicates.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const winner = duplicates.find((r) => r.status === 200)!;
    expect(await winner.json()).toEqual({ run: 1, email: 'ana@example.com' });
    const retry = await create('k-1', 'ana@example.com');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual({ run: 1, email: 'ana@example.com' });
    const changed = await create('k-1', 'ben@example.com');
    expect(changed.status).toBe(409);
    expect(changed.headers.get('content-type')).toContain('application/problem+json');
    expect((await create('k-2', 'ben@example.com')).status).toBe(200);
    expect(runs).toBe(2);
  });
});
`;

describe('the generated Express code on routing-controllers', () => {
  const workspace = makeWorkspace('routing-controllers-run');
  afterAll(() => workspace.remove());

  it('tells to wire each action with @UseBefore after the auth, the check agrees, and a real app wired so runs once per key', async () => {
    const { model, file } = await generated();
    const express = file('express.ts');
    expect(express).toContain('@UseBefore(authenticate, idempotent.createUser) @Post() create(…)');
    expect(express).toContain('@UseBefore(authenticate, idempotent.acceptInvite) @Post(\'/:code/accept\') accept(…)');
    expect(express).not.toContain("app.post('/payments', express.json()");
    writeArtifacts(workspace.dir, model.artifacts);
    expect(checkAgainstArtifacts(renderMarkdown(model), 'md', workspace.dir)).toEqual([]);
    writeFileSync(join(workspace.dir, 'rc-usage.test.ts'), USAGE);
    const stdout = await runGeneratedVitest(workspace.dir, 'rc-usage.test.ts', { IDEMPOTENCY_DB: join(workspace.dir, 'idempotency.db') });
    expect(stdout).toMatch(/Tests\s+1 passed/);
  }, 180_000);
});

/** The same on Koa: routing-controllers adds koa-bodyparser to the app; the principal is on ctx.state. */
const KOA_USAGE = `import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { Body, JsonController, Post, UseBefore, useKoaServer } from 'routing-controllers';
import { afterAll, describe, expect, it } from 'vitest';
import { idempotent } from './koa.js';

let runs = 0;
class UserController {
  async create(body: { email: string }) {
    runs += 1;
    await new Promise((done) => setTimeout(done, 150));
    return { run: runs, email: body.email };
  }
}
const method = Object.getOwnPropertyDescriptor(UserController.prototype, 'create')!;
Body()(UserController.prototype, 'create', 0);
for (const decorate of [UseBefore(idempotent.createUser), Post()]) decorate(UserController.prototype, 'create', method);
JsonController('/users')(UserController);

const app = new Koa();
app.use(async (ctx, next) => {
  const user = ctx.get('x-user');
  if (user) ctx.state.user = { id: user };
  await next();
});
useKoaServer(app, { routePrefix: '/api', controllers: [UserController] });
${LISTEN_AND_CLIENT}

describe('koa.ts on routing-controllers', () => {
  it('runs concurrent duplicates of one key once, replays a retry and refuses a changed body', async () => {
    const duplicates = await Promise.all(Array.from({ length: 5 }, () => create('k-1', 'ana@example.com')));
    expect(runs).toBe(1);
    expect(duplicates.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const retry = await create('k-1', 'ana@example.com');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual({ run: 1, email: 'ana@example.com' });
    expect((await create('k-1', 'ben@example.com')).status).toBe(409);
    expect(runs).toBe(1);
  });
});
`;

describe('the generated Koa code on routing-controllers', () => {
  const workspace = makeWorkspace('routing-controllers-koa');
  afterAll(() => workspace.remove());

  it('lists each action’s @UseBefore in koa.ts, and a real routing-controllers + Koa app wired so runs once per key', async () => {
    const dir = project({
      'package.json': '{ "name": "accounts", "dependencies": { "koa": "^2.15.0", "routing-controllers": "^0.11.3", "class-validator": "^0.14.1" } }',
      'src/app.ts': "import { createKoaServer } from 'routing-controllers';\nimport { UserController } from './api/controllers/user-controller';\nexport const app = createKoaServer({ routePrefix: '/api', controllers: [UserController] });\n",
    });
    const { answers } = await collectAnswers({ inspect: () => inspectCodebase(dir) });
    const model = buildDesign(answers, { generatedAt: GENERATED_AT });
    const koa = model.artifacts.find((a) => a.path === 'koa.ts')?.content ?? '';
    expect(koa).toContain('//     @UseBefore(idempotent.createUser) @Post() create(…)');
    writeArtifacts(workspace.dir, model.artifacts);
    expect(checkAgainstArtifacts(renderMarkdown(model), 'md', workspace.dir)).toEqual([]);
    writeFileSync(join(workspace.dir, 'rc-koa-usage.test.ts'), KOA_USAGE);
    const stdout = await runGeneratedVitest(workspace.dir, 'rc-koa-usage.test.ts', { IDEMPOTENCY_DB: join(workspace.dir, 'idempotency.db') });
    expect(stdout).toMatch(/Tests\s+1 passed/);
  }, 180_000);
});
