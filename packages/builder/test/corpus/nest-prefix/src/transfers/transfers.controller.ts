import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { Pool } from 'pg';
import { CreateTransferDto } from './dto/create-transfer.dto';

const pool = new Pool();

@Controller('transfers')
export class TransfersController {
  @Post()
  async create(@Body() dto: CreateTransferDto) {
    await pool.query('INSERT INTO transfers (from_account, to_account, amount_cents, currency) VALUES ($1, $2, $3, $4)', [dto.fromAccount, dto.toAccount, dto.amountCents, dto.currency]);
    return { ok: true };
  }

  @Delete(':transferId')
  async cancel(@Param('transferId') transferId: string) {
    await pool.query('UPDATE transfers SET status = $1 WHERE id = $2', ['cancelled', transferId]);
  }
}
