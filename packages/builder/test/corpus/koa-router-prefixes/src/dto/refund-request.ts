export interface RefundRequest {
  amount: number;
  reason: string;
}
