import type { Context } from 'koa';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CreatePaymentDto } from '../dto/create-payment.dto';
import type { RefundRequest } from '../dto/refund-request';
import { stripe } from '../stripe';

export async function createPaymentIntent(ctx: Context): Promise<void> {
  const dto = plainToInstance(CreatePaymentDto, ctx.request.body);
  const errors = await validate(dto);
  if (errors.length > 0) ctx.throw(422, 'invalid payment');
  const intent = await stripe.paymentIntents.create({ amount: dto.amount, currency: dto.currency, metadata: { orderId: dto.orderId } });
  ctx.status = 201;
  ctx.body = { clientSecret: intent.client_secret };
}

export async function refundPayment(ctx: Context): Promise<void> {
  const refund = ctx.request.body as RefundRequest;
  const created = await stripe.refunds.create({ payment_intent: ctx.params.paymentId, amount: refund.amount, metadata: { reason: refund.reason } });
  ctx.body = { refundId: created.id };
}
