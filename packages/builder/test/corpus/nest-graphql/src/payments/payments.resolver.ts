import { Args, Context, Field, InputType, Int, Mutation, ObjectType, Resolver } from '@nestjs/graphql';
import Stripe from 'stripe';

@InputType()
export class CapturePaymentInput {
  @Field() paymentIntentId!: string;
  @Field(() => Int) amountCents!: number;
}

@ObjectType()
export class CaptureResult {
  @Field() status!: string;
}

@Resolver()
export class PaymentsResolver {
  private readonly stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

  // Captures without an idempotency key: a retried mutation captures twice.
  @Mutation(() => CaptureResult)
  async capturePayment(@Args('input') input: CapturePaymentInput, @Context() ctx: { req: { user?: { id: string } } }) {
    const intent = await this.stripe.paymentIntents.capture(input.paymentIntentId, { amount_to_capture: input.amountCents });
    return { status: intent.status, capturedBy: ctx.req.user?.id };
  }
}
