import { Body, Controller, Post } from '@nestjs/common';
import { pool } from '../db';

class ImportBookingsDto {
  partnerId!: string;
  batchId!: string;
  bookings!: Array<{ roomId: string; checkIn: string; checkOut: string }>;
}

// Both names are served: `reservations` is what older partner integrations call.
@Controller(['bookings', 'reservations'])
export class PartnerImportsController {
  @Post(['import', 'bulk-import'])
  async importBatch(@Body() dto: ImportBookingsDto) {
    await pool.query('INSERT INTO partner_batches (partner_id, batch_id, payload) VALUES ($1, $2, $3)', [dto.partnerId, dto.batchId, JSON.stringify(dto.bookings)]);
  }
}
