/**
 * Body models named through the handler file's imports. Two modules of one project often declare
 * the same name (Synderis/ecommerce_site has a `UserCreate` in schemas/users.py and another in
 * schemas/auth.py); each endpoint must take the fields of the one its own file imports — through
 * absolute and package-relative Python imports, an `as` alias, a module alias, a package's
 * `__init__.py`, relative TS imports, tsconfig paths, barrels and a Joi validations module — and an
 * import the inspector cannot follow keeps finding what the bare name finds.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { createShapeIndex } from '../src/inspect/shape-index.js';
import { resolveShape } from '../src/inspect/shape-refs.js';

const project = tempProjects('shape-imports');

async function bodies(files: Record<string, string>): Promise<Record<string, readonly string[]>> {
  const inspection = await inspectCodebase(project(files));
  return Object.fromEntries(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyFields]));
}

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

describe('Python body models through imports (FastAPI)', () => {
  const fastapi = {
    'backend/requirements.txt': 'fastapi==0.110.0\npydantic==2.6.0\n',
    // First in walk order: the bare name `UserCreate` is this one.
    'backend/app/schemas/auth.py': lines(
      'from pydantic import BaseModel',
      'class UserCreate(BaseModel):',
      '    email: str',
      '    password: str',
      '    otp_code: str',
    ),
    'backend/app/schemas/users.py': lines(
      'from pydantic import BaseModel',
      'class UserCreate(BaseModel):',
      '    email: str',
      '    full_name: str',
      'class UserUpdate(UserCreate):',
      '    nickname: str | None = None',
    ),
  };

  it('gives each endpoint the model its own module imports: absolute, relative with `as`, a module alias, and its own class', async () => {
    const found = await bodies({
      ...fastapi,
      'backend/app/routers/users.py': lines(
        'from fastapi import APIRouter',
        'from app.schemas.users import UserCreate, UserUpdate',
        'router = APIRouter(prefix="/users")',
        '@router.post("")',
        'def create_user(user: UserCreate):',
        '    return service.create(user)',
        '@router.patch("/{user_id}")',
        'def update_user(user_id: int, user: UserUpdate):',
        '    return service.update(user_id, user)',
      ),
      'backend/app/routers/auth.py': lines(
        'from fastapi import APIRouter',
        'from ..schemas.auth import UserCreate as SignUp',
        'router = APIRouter(prefix="/auth")',
        '@router.post("/signup")',
        'def signup(body: SignUp):',
        '    return service.signup(body)',
      ),
      'backend/app/routers/profiles.py': lines(
        'from typing import Optional',
        'from fastapi import APIRouter',
        'import app.schemas.users as user_schemas',
        'router = APIRouter(prefix="/profiles")',
        '@router.post("")',
        'def create_profile(body: Optional[user_schemas.UserCreate] = None):',
        '    return service.create(body)',
      ),
      'backend/app/routers/invites.py': lines(
        'from fastapi import APIRouter',
        'from pydantic import BaseModel',
        'router = APIRouter(prefix="/invites")',
        'class UserCreate(BaseModel):',
        '    email: str',
        '    invited_by: str',
        '@router.post("")',
        'def invite(body: UserCreate):',
        '    return service.invite(body)',
      ),
    });
    expect(found).toEqual({
      'POST /users': ['email', 'full_name'],
      'PATCH /users/{user_id}': ['email', 'full_name', 'nickname'],
      'POST /auth/signup': ['email', 'password', 'otp_code'],
      'POST /profiles': ['email', 'full_name'],
      'POST /invites': ['email', 'invited_by'],
    });
  });

  it("follows a package's __init__.py re-export, and falls back to the bare name where the import leads outside the walk", async () => {
    const found = await bodies({
      ...fastapi,
      'backend/app/legacy.py': lines('from pydantic import BaseModel', 'class Invoice(BaseModel):', '    total: int'),
      'backend/app/billing/__init__.py': lines('from .models import Invoice', '__all__ = ["Invoice"]'),
      'backend/app/billing/models.py': lines('from pydantic import BaseModel', 'class Invoice(BaseModel):', '    amount: int', '    currency: str'),
      // Installed as a package (`pip install -e libs/shop_contracts`): no folder above the router holds it.
      'libs/shop_contracts/shop_contracts/orders.py': lines('from pydantic import BaseModel', 'class OrderIn(BaseModel):', '    sku: str', '    quantity: int'),
      'backend/app/routers/billing.py': lines(
        'from fastapi import APIRouter',
        'from app.billing import Invoice',
        'from shop_contracts.orders import OrderIn',
        'router = APIRouter()',
        '@router.post("/invoices")',
        'def create_invoice(invoice: Invoice):',
        '    return service.create(invoice)',
        '@router.post("/orders")',
        'def create_order(order: OrderIn):',
        '    return service.order(order)',
      ),
    });
    expect(found).toEqual({ 'POST /invoices': ['amount', 'currency'], 'POST /orders': ['sku', 'quantity'] });
  });
});

describe('TypeScript body types through imports', () => {
  const nest = {
    'package.json': '{ "name": "x", "dependencies": { "@nestjs/common": "^10.0.0", "@nestjs/core": "^10.0.0", "@nestjs/mapped-types": "^2.0.0" } }',
    'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@admin/*": ["src/admin/*"] } } }',
    // First in walk order: the bare name `CreateUserDto` is this one.
    'src/admin/dto/create-user.dto.ts': 'export class CreateUserDto { email: string; role: string; permissions: string[] }\n',
    'src/users/dto/create-user.dto.ts': 'export class CreateUserDto { email: string; displayName: string }\n',
    'src/users/dto/update-user.dto.ts': lines(
      "import { PartialType } from '@nestjs/mapped-types';",
      "import { CreateUserDto } from './create-user.dto';",
      'export class UpdateUserDto extends PartialType(CreateUserDto) { bio?: string }',
    ),
    'src/users/dto/index.ts': "export * from './create-user.dto';\nexport * from './update-user.dto';\n",
  };

  it('gives each NestJS endpoint its own module\'s DTO: a barrel, a tsconfig path, a base class through an import, a class of the file', async () => {
    const found = await bodies({
      ...nest,
      'src/users/users.controller.ts': lines(
        "import { Body, Controller, Param, Patch, Post } from '@nestjs/common';",
        "import { CreateUserDto, UpdateUserDto } from './dto';",
        "@Controller('users')",
        'export class UsersController {',
        '  @Post() create(@Body() dto: CreateUserDto) { return this.users.save(dto); }',
        "  @Patch(':id') update(@Param('id') id: string, @Body() dto: UpdateUserDto) { return this.users.update(id, dto); }",
        '}',
      ),
      'src/admin/admin.controller.ts': lines(
        "import { Body, Controller, Post } from '@nestjs/common';",
        "import type { CreateUserDto as NewUser } from '@admin/dto/create-user.dto';",
        "@Controller('admin/users')",
        'export class AdminController {',
        '  @Post() create(@Body() dto: NewUser) { return this.users.save(dto); }',
        '}',
      ),
      'src/invites/invites.controller.ts': lines(
        "import { Body, Controller, Post } from '@nestjs/common';",
        'class CreateUserDto { email: string; invitedBy: string }',
        "@Controller('invites')",
        'export class InvitesController {',
        '  @Post() invite(@Body() dto: CreateUserDto) { return this.invites.save(dto); }',
        '}',
      ),
    });
    expect(found).toEqual({
      'POST /users': ['email', 'displayName'],
      'PATCH /users/:id': ['email', 'displayName', 'bio'],
      'POST /admin/users': ['email', 'role', 'permissions'],
      'POST /invites': ['email', 'invitedBy'],
    });
  });

  it('falls back to the bare name for a DTO imported from a package the walk cannot resolve, and invents nothing for one no file declares', async () => {
    const inspection = await inspectCodebase(project({
      ...nest,
      'libs/contracts/package.json': '{ "name": "@acme/contracts", "main": "src/index.ts" }',
      'libs/contracts/src/create-order.dto.ts': 'export class CreateOrderDto { sku: string; quantity: number }\n',
      'src/orders/orders.controller.ts': lines(
        "import { Body, Controller, Param, Post } from '@nestjs/common';",
        "import { CreateOrderDto, RefundDto } from '@acme/contracts';",
        "@Controller('orders')",
        'export class OrdersController {',
        '  @Post() create(@Body() dto: CreateOrderDto) { return this.orders.save(dto); }',
        "  @Post(':id/refund') refund(@Param('id') id: string, @Body() dto: RefundDto) { return this.refunds.save(id, dto); }",
        '}',
      ),
    }));
    const rows = inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyType, e.bodyFields]);
    expect(rows).toEqual([['POST /orders', 'CreateOrderDto', ['sku', 'quantity']], ['POST /orders/:id/refund', 'RefundDto', []]]);
  });

  it('reads `validate(xValidation.createUser)` in the validations module the route file requires, also through an index re-export', async () => {
    const joi = (...keys: string[]) => lines(
      "const Joi = require('joi');",
      'const createUser = {',
      `  body: Joi.object().keys({ ${keys.map((k) => `${k}: Joi.string()`).join(', ')} }),`,
      '};',
      'module.exports = { createUser };',
    );
    const route = (binding: string, name: string) => lines(
      "const express = require('express');",
      "const validate = require('../middlewares/validate');",
      binding,
      "const controller = require('../controllers/user.controller');",
      'const router = express.Router();',
      `router.post('/', validate(${name}.createUser), controller.createUser);`,
      'module.exports = router;',
    );
    const found = await bodies({
      'package.json': '{ "name": "x", "dependencies": { "express": "^4.19.2", "joi": "^17.0.0" } }',
      // First in walk order: the bare name `createUser` is the admin one.
      'src/validations/admin.validation.js': joi('email', 'role'),
      'src/validations/user.validation.js': joi('email', 'name', 'password'),
      'src/validations/index.js': lines(
        "module.exports.adminValidation = require('./admin.validation');",
        "module.exports.userValidation = require('./user.validation');",
      ),
      'src/routes/user.route.js': route("const userValidation = require('../validations/user.validation');", 'userValidation'),
      'src/routes/admin.route.js': route("const { adminValidation } = require('../validations');", 'adminValidation'),
      'src/routes/account.route.js': route("import * as accountValidation from '../validations/user.validation';", 'accountValidation'),
      'src/controllers/user.controller.js': 'const createUser = async (req, res) => res.status(201).send(await userService.create(req.body));\nmodule.exports = { createUser };\n',
      'src/app.js': lines(
        "const express = require('express');",
        "const userRoute = require('./routes/user.route');",
        "const adminRoute = require('./routes/admin.route');",
        "const accountRoute = require('./routes/account.route');",
        'const app = express();',
        "app.use('/users', userRoute);",
        "app.use('/admin/users', adminRoute);",
        "app.use('/accounts', accountRoute);",
      ),
    });
    expect(found).toEqual({
      'POST /users': ['email', 'name', 'password'],
      'POST /admin/users': ['email', 'role'],
      'POST /accounts': ['email', 'name', 'password'],
    });
  });
});

describe('qualified shape names', () => {
  const shapes = new Map<string, string[]>([
    ['UserCreate', ['email', 'otp_code']],
    ['UserCreate@a/auth.py', ['email', 'otp_code']],
    ['UserCreate@a/users.py', ['email', 'full_name']],
    ['UserUpdate@a/users.py', ['...UserCreate@a/users.py', 'nickname']],
    ['Patch@a/users.py', ['...UserUpdate@a/users.py!nickname', '...Patch@a/users.py']],
    ['*@a/index.ts', ['a/missing.ts,a/users.py']],
    ['users.*@a/index.ts', ['a/users.py']],
  ]);
  const fields = (list: string) => resolveShape(list, shapes)?.fields;

  it('takes the file the import names, through re-exports whole or as a namespace, with bases, omissions and cycles cut', () => {
    expect(fields('UserCreate@a/users.py')).toEqual(['email', 'full_name']);
    expect(fields('UserUpdate@a/index.ts')).toEqual(['email', 'full_name', 'nickname']);
    expect(fields('users.UserCreate@a/index.ts')).toEqual(['email', 'full_name']);
    expect(fields('Patch@a/users.py')).toEqual(['email', 'full_name']);
  });

  it('falls back to the bare name only where no candidate file has the shape, and finds nothing for an unknown name', () => {
    expect(fields('UserCreate@pkg/models.py,pkg/models/__init__.py')).toEqual(['email', 'otp_code']);
    expect(resolveShape('Missing@a/users.py|UserCreate@a/users.py', shapes)).toEqual({ candidate: 'UserCreate@a/users.py', fields: ['email', 'full_name'] });
    expect(fields('Missing@a/users.py')).toBeUndefined();
  });

  it('parses a deferred file when an import names its path, even one that declares no name of its own (a barrel)', () => {
    const index = createShapeIndex();
    index.defer(1, 'src/dto/index.ts', "export * from './pay.dto';\n");
    index.defer(2, 'src/dto/pay.dto.ts', 'export class PayDto { amount!: number }\n');
    const files: Record<string, Map<string, string[]>> = {
      'src/dto/index.ts': new Map([['*@src/dto/index.ts', ['src/dto/pay.dto.ts']]]),
      'src/dto/pay.dto.ts': new Map([['PayDto', ['amount']], ['PayDto@src/dto/pay.dto.ts', ['amount']]]),
    };
    const loaded: string[] = [];
    const { shapes: found } = index.resolve(['PayDto@src/dto/index.ts'], (path) => {
      loaded.push(path);
      return files[path];
    });
    expect(loaded.sort()).toEqual(['src/dto/index.ts', 'src/dto/pay.dto.ts']);
    expect(resolveShape('PayDto@src/dto/index.ts', found)?.fields).toEqual(['amount']);
  });
});
