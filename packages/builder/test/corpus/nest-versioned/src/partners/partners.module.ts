import { Module } from '@nestjs/common';
import { PartnerImportsController } from './partner-imports.controller';

@Module({ controllers: [PartnerImportsController] })
export class PartnersModule {}
