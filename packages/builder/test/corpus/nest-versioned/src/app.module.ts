import { Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { BookingsController } from './bookings/bookings.controller';
import { ChannelCallbacksController } from './callbacks/channel-callbacks.controller';
import { PartnersModule } from './partners/partners.module';

@Module({
  imports: [PartnersModule, RouterModule.register([{ path: 'partners', module: PartnersModule }])],
  controllers: [BookingsController, ChannelCallbacksController],
})
export class AppModule {}
