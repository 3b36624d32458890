import { Body, Controller, Post } from '@nestjs/common';
import { Pool } from 'pg';

const pool = new Pool();

@Controller('exports')
export class ExportsController {
  @Post()
  async requestExport(@Body('format') format: string) {
    await pool.query('INSERT INTO export_jobs (format) VALUES ($1)', [format]);
    return { queued: true };
  }
}
