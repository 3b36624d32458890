import { Authorized, Body, BodyParam, CurrentUser, Delete, Get, JsonController, Param, Patch, Post } from 'routing-controllers';
import { AppDataSource } from '../../data-source';
import { CreateOrderDto } from '../dto/create-order.dto';

const orders = AppDataSource.getRepository('Order');

@Authorized()
@JsonController('/orders')
export class OrderController {
  @Get('/:id')
  public one(@Param('id') id: string) {
    return orders.findOneBy({ id });
  }

  @Post()
  public async create(@CurrentUser() user: { id: string }, @Body() dto: CreateOrderDto) {
    return orders.save({ ...dto, ownerId: user.id });
  }

  @Patch('/:id/cancel')
  public async cancel(@Param('id') id: string, @BodyParam('reason') reason: string) {
    return orders.update(id, { status: 'cancelled', reason });
  }

  @Delete('/:id')
  public async remove(@Param('id') id: string) {
    await orders.delete(id);
    return { deleted: id };
  }
}
