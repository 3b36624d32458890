/**
 * Litestar apps: handler functions and `Controller` classes mounted by `Router(path=…,
 * route_handlers=[…])` lists across modules, paths as Litestar normalises them, the `data`
 * parameter as the body (pydantic, msgspec, dataclass), and the framework reported as `other`
 * with a note that no generated file runs on Litestar.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { resolveStack } from '../src/design/plan/stack.js';
import { LITESTAR_NOTE } from '../src/inspect/patterns/python-litestar.js';

const project = tempProjects('litestar');
const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const app = {
  'pyproject.toml': lines('[project]', 'name = "shop"', 'dependencies = ["litestar>=2", "msgspec"]'),
  'app/models.py': lines(
    'from dataclasses import dataclass',
    'import msgspec',
    'from pydantic import BaseModel',
    'class OrderIn(BaseModel):',
    '    sku: str',
    '    quantity: int',
    'class RefundIn(msgspec.Struct, kw_only=True):',
    '    amount: int',
    '    reason: str',
    '@dataclass',
    'class NoteIn:',
    '    text: str',
  ),
  'app/orders.py': lines(
    'from litestar import Controller, delete, get, patch, post',
    'from app.models import OrderIn, RefundIn',
    'class OrderController(Controller):',
    '    path = "/orders"',
    '    @post()',
    '    async def create(self, current_user: User, data: OrderIn) -> Order:',
    '        return await repo.add(data)',
    '    @patch(path="/{order_id:int}/")',
    '    async def update(self, order_id: int, data: OrderIn) -> Order:',
    '        return await repo.update(order_id, data)',
    '    @post(["/{order_id:int}/refunds", "/{order_id:int}/refund"])',
    '    async def refund(self, order_id: int, data: RefundIn) -> None:',
    '        await payments.refund(order_id, data.amount)',
    '    @delete("/{order_id:int}")',
    '    async def remove(self, order_id: int) -> None:',
    '        await repo.delete(order_id)',
    '    @get("/")',
    '    async def listing(self) -> list[Order]:',
    '        return []',
  ),
  'app/notes.py': lines(
    'from litestar import post',
    'from app.models import NoteIn',
    '@post("/notes")',
    'async def add_note(data: NoteIn) -> None:',
    '    await repo.add(data)',
  ),
  'app/main.py': lines(
    'from litestar import Litestar, Router',
    'from app.orders import OrderController',
    'from app import notes',
    'api = Router(path="/api", route_handlers=[OrderController, notes.add_note])',
    'app = Litestar(route_handlers=[api])',
  ),
};

describe('Litestar', () => {
  it('serves controllers and handler functions below their routers, bodies from `data`', async () => {
    const inspection = await inspectCodebase(project(app));
    const found = Object.fromEntries(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyFields]));
    expect(found).toEqual({
      'POST /api/orders': ['sku', 'quantity'],
      'PATCH /api/orders/{order_id:int}': ['sku', 'quantity'],
      'POST /api/orders/{order_id:int}/refunds': ['amount', 'reason'],
      'POST /api/orders/{order_id:int}/refund': ['amount', 'reason'],
      'DELETE /api/orders/{order_id:int}': [],
      'POST /api/notes': ['text'],
    });
    expect(inspection.endpoints.find((e) => e.method === 'DELETE')?.pathParams).toEqual(['order_id']);
    expect(inspection.endpoints.find((e) => e.method === 'DELETE')?.handler).toBe('OrderController.remove');
  });

  it('reports Litestar as `other`, and the design never says its generated code runs on it', async () => {
    const inspection = await inspectCodebase(project(app));
    expect(new Set(inspection.endpoints.map((e) => e.framework))).toEqual(new Set(['other']));
    expect(inspection.framework?.value).toBe('other');
    expect(inspection.notes.filter((n) => n === LITESTAR_NOTE)).toHaveLength(1);
    const stack = resolveStack({ stack: { language: 'python', framework: 'other', database: 'postgresql', broker: 'none' } } as Parameters<typeof resolveStack>[0]);
    expect(stack.notes.join(' ')).toMatch(/not one the generator writes code for.*must be ported/);
  });

  it('follows `from . import x` and a router mounted at `Controller.path` of an imported controller (EliasEriksson/fullstack-template)', async () => {
    const inspection = await inspectCodebase(project({
      'pyproject.toml': lines('[project]', 'name = "t"', 'dependencies = ["litestar>=2"]'),
      'api/schemas.py': lines('from pydantic import BaseModel', 'class PasswordIn(BaseModel):', '    password: str'),
      'api/gateway/__init__.py': lines('from litestar import Litestar', 'from . import routes', 'gateway = Litestar(route_handlers=[routes.router])'),
      'api/gateway/routes/__init__.py': lines('from litestar import Router', 'from . import auth', 'router = Router(path="api", route_handlers=[auth.router])'),
      'api/gateway/routes/auth/__init__.py': lines('from litestar import Router', 'from .controller import Controller', 'from . import routes', 'router = Router(path="", route_handlers=[Controller, routes.router])'),
      'api/gateway/routes/auth/controller.py': lines(
        'from litestar import Controller as LitestarController, post',
        'class Controller(LitestarController):',
        '    path = "/auth"',
        '    @post("/")',
        '    async def register(self) -> None:',
        '        await repo.add()',
      ),
      'api/gateway/routes/auth/routes/__init__.py': lines('from litestar import Router', 'from . import password', 'from ..controller import Controller', 'router = Router(path=Controller.path, route_handlers=[password.router])'),
      'api/gateway/routes/auth/routes/password/__init__.py': lines('from litestar import Router', 'from .controller import Controller', 'router = Router(path="", route_handlers=[Controller])'),
      'api/gateway/routes/auth/routes/password/controller.py': lines(
        'from litestar import Controller as LitestarController, put',
        'from api.schemas import PasswordIn',
        'class Controller(LitestarController):',
        '    path = "/password"',
        '    @put(path="")',
        '    async def set(self, data: PasswordIn) -> None:',
        '        await repo.update(data)',
      ),
    }));
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route} ${e.bodyFields.join(',')}`)).toEqual(['POST /api/auth ', 'PUT /api/auth/password password']);
    expect(inspection.notes.filter((n) => /mount prefix/.test(n))).toEqual([]);
  });
});
