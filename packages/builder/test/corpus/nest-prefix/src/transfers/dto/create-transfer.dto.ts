// The request body as a DTO class in its own file (validation decorators left out: the corpus is type-checked without class-validator).
export class CreateTransferDto {
  fromAccount!: string;
  toAccount!: string;
  amountCents!: number;
  currency!: string;
}
