import { Module } from '@nestjs/common';
import { RefundsController } from './transfers/refunds.controller';
import { TransfersController } from './transfers/transfers.controller';

@Module({ controllers: [TransfersController, RefundsController] })
export class AppModule {}
