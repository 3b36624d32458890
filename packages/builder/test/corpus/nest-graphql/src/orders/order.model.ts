import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class OrderLine {
  @Field(() => ID) sku!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Int) unitCents!: number;
}

@ObjectType()
export class Order {
  @Field(() => ID) id!: string;
  @Field(() => [OrderLine]) lines!: OrderLine[];
  @Field() status!: string;
}
