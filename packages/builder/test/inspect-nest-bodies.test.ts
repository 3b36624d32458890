/**
 * NestJS request bodies: a destructured `@Body()`, and DTOs that inherit their fields — `extends
 * Base` and the mapped types of `@nestjs/swagger` / `@nestjs/mapped-types` — across files.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('nest-bodies', { 'package.json': '{ "name": "x", "dependencies": { "@nestjs/common": "^10.0.0", "@nestjs/core": "^10.0.0" } }' });

async function bodies(files: Record<string, string>): Promise<Record<string, readonly string[]>> {
  const inspection = await inspectCodebase(project(files));
  return Object.fromEntries(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyFields]));
}

describe('NestJS bodies', () => {
  it('takes the fields a destructured @Body() names, and keeps @Body(name) as that field', async () => {
    const found = await bodies({
      'src/subscriptions.controller.ts': `import { Body, Controller, Post } from '@nestjs/common';
class CheckoutDto { couponId: string; priceId: string; successUrl: string }
@Controller('subscriptions')
export class SubscriptionsController {
  @Post('checkout')
  checkout(@Body() { couponId, priceId }: CheckoutDto) { return this.sessions.save({ couponId, priceId }); }
  @Post('articles')
  article(@Body('article') dto: CheckoutDto) { return this.articles.save(dto); }
}
`,
    });
    expect(found).toEqual({ 'POST /subscriptions/checkout': ['couponId', 'priceId'], 'POST /subscriptions/articles': ['article'] });
  });

  it('gives a DTO the fields it inherits: a base class, PartialType, PickType, OmitType and IntersectionType, from another file', async () => {
    const found = await bodies({
      'src/dto/base.dto.ts': 'export class TenantDto { tenantId: string }\n',
      'src/dto/order.dto.ts': `import { IntersectionType, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { TenantDto } from './base.dto';
export class CreateOrderDto extends TenantDto { sku: string; qty: number; note?: string }
export class UpdateOrderDto extends PartialType(CreateOrderDto) {}
export class RenameOrderDto extends PickType(CreateOrderDto, ['sku'] as const) {}
export class PatchOrderDto extends OmitType(CreateOrderDto, ['note'] as const) { reason: string }
export class AuditDto { actor: string }
export class AuditedOrderDto extends IntersectionType(PartialType(OmitType(CreateOrderDto, ['tenantId'] as const)), AuditDto) {}
`,
      'src/orders.controller.ts': `import { Body, Controller, Patch, Post, Put } from '@nestjs/common';
import { AuditedOrderDto, CreateOrderDto, PatchOrderDto, RenameOrderDto, UpdateOrderDto } from './dto/order.dto';
@Controller('orders')
export class OrdersController {
  @Post() create(@Body() dto: CreateOrderDto) { return this.orders.save(dto); }
  @Put(':id') update(@Body() dto: UpdateOrderDto) { return this.orders.save(dto); }
  @Put(':id/name') rename(@Body() dto: RenameOrderDto) { return this.orders.save(dto); }
  @Patch(':id') patch(@Body() dto: PatchOrderDto) { return this.orders.save(dto); }
  @Post('audited') audited(@Body() dto: AuditedOrderDto) { return this.orders.save(dto); }
}
`,
    });
    expect(found).toEqual({
      'POST /orders': ['tenantId', 'sku', 'qty', 'note'],
      'PUT /orders/:id': ['tenantId', 'sku', 'qty', 'note'],
      'PUT /orders/:id/name': ['sku'],
      'PATCH /orders/:id': ['tenantId', 'sku', 'qty', 'reason'],
      'POST /orders/audited': ['sku', 'qty', 'note', 'actor'],
    });
  });
});
