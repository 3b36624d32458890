import { Body, Controller, Post } from 'routing-controllers';
import { AppDataSource } from '../../data-source';

const refunds = AppDataSource.getRepository('Refund');

// routing-controllers' plain @Controller (not NestJS's): same decorator name, another module.
@Controller('/refunds')
export class RefundController {
  @Post('/')
  public async request(@Body() { orderId, amountCents }: { orderId: string; amountCents: number }) {
    return refunds.insert({ orderId, amountCents });
  }
}
