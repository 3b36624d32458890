import { IsIn, IsInt, IsUUID, Min } from 'class-validator';

export class CreatePaymentDto {
  @IsInt()
  @Min(50)
  amount!: number;

  @IsIn(['eur', 'usd', 'gbp'])
  currency!: string;

  @IsUUID()
  orderId!: string;
}
