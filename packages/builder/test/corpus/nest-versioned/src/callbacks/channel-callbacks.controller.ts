import { Body, Controller, Post, VERSION_NEUTRAL } from '@nestjs/common';
import { pool } from '../db';

interface AvailabilityPush {
  roomId: string;
  date: string;
  available: number;
}

// Called by the channel manager at a URL it was configured with once: no prefix, no version.
@Controller({ path: 'callbacks', version: VERSION_NEUTRAL })
export class ChannelCallbacksController {
  @Post('channel-manager')
  async availability(@Body() push: AvailabilityPush) {
    await pool.query('INSERT INTO availability (room_id, day, available) VALUES ($1, $2, $3) ON CONFLICT (room_id, day) DO UPDATE SET available = $3',
      [push.roomId, push.date, push.available]);
  }
}
