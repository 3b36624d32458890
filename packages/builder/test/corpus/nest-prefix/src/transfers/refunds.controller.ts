import { Body, Controller, Post } from '@nestjs/common';

interface RefundBody {
  transferId: string;
  reason: string;
}

// URI-versioned controller: served under /ledger/v2/refunds once versioning is enabled in main.ts.
@Controller({ path: 'refunds', version: '2' })
export class RefundsController {
  @Post()
  refund(@Body() body: RefundBody) {
    return { queued: body.transferId, reason: body.reason };
  }
}
