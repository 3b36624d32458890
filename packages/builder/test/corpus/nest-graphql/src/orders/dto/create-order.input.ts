import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { IsOptional, Min } from 'class-validator';

@InputType()
export class OrderLineInput {
  @Field(() => ID)
  sku!: string;

  @Field(() => Int)
  @Min(1)
  quantity!: number;
}

@InputType()
export class CreateOrderInput {
  @Field(() => ID)
  customerId!: string;

  @Field(() => [OrderLineInput])
  lines!: OrderLineInput[];

  @Field({ nullable: true })
  @IsOptional()
  couponCode?: string;
}
