import { Body, Controller, Param, Patch, Post, Version } from '@nestjs/common';
import { bookingRoutes } from '../app.routes';
import { pool } from '../db';
import { CancelBookingDto, CreateBookingDto, UpdateBookingDto } from './dto/booking.dto';

@Controller(bookingRoutes.root)
export class BookingsController {
  // Served as /api/v1/bookings: the app's default version.
  @Post()
  async create(@Body() dto: CreateBookingDto) {
    await pool.query('INSERT INTO bookings (tenant_id, room_id, check_in, check_out, guest_email) VALUES ($1, $2, $3, $4, $5)',
      [dto.tenantId, dto.roomId, dto.checkIn, dto.checkOut, dto.guestEmail]);
  }

  @Patch(bookingRoutes.byId)
  async update(@Param('bookingId') bookingId: string, @Body() dto: UpdateBookingDto) {
    await pool.query('UPDATE bookings SET room_id = COALESCE($1, room_id), check_in = COALESCE($2, check_in), check_out = COALESCE($3, check_out), guest_email = COALESCE($4, guest_email) WHERE id = $5',
      [dto.roomId, dto.checkIn, dto.checkOut, dto.guestEmail, bookingId]);
  }

  // Version 2 only: version 1 cancelled without a reason and has been retired.
  @Version('2')
  @Post(bookingRoutes.cancel)
  async cancel(@Param('bookingId') bookingId: string, @Body() { reason, refundPolicy }: CancelBookingDto) {
    await pool.query('UPDATE bookings SET status = $1, cancel_reason = $2, refund_policy = $3 WHERE id = $4', ['cancelled', reason, refundPolicy, bookingId]);
  }
}
