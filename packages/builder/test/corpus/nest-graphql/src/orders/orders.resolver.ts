import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Pool } from 'pg';
import { CreateOrderInput } from './dto/create-order.input';
import { Order } from './order.model';

const pool = new Pool();

@Resolver(() => Order)
export class OrdersResolver {
  @Query(() => [Order])
  async orders(@Args('customerId', { type: () => ID }) customerId: string) {
    const { rows } = await pool.query('SELECT * FROM orders WHERE customer_id = $1', [customerId]);
    return rows;
  }

  @Mutation(() => Order)
  async createOrder(@Args('input') input: CreateOrderInput) {
    const { rows } = await pool.query(
      'INSERT INTO orders (customer_id, lines, coupon_code) VALUES ($1, $2, $3) RETURNING *',
      [input.customerId, JSON.stringify(input.lines), input.couponCode ?? null],
    );
    return rows[0];
  }

  @Mutation(() => Order, { name: 'cancelOrder' })
  async cancel(@Args('id', { type: () => ID }) id: string, @Args('reason', { nullable: true }) reason?: string) {
    const { rows } = await pool.query('UPDATE orders SET status = $1, cancel_reason = $2 WHERE id = $3 RETURNING *', ['cancelled', reason ?? null, id]);
    return rows[0];
  }

  @ResolveField(() => Number)
  total(@Parent() order: Order) {
    return order.lines.reduce((sum, line) => sum + line.quantity * line.unitCents, 0);
  }
}
