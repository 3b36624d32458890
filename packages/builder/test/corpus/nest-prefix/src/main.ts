// Corpus fixture: NestJS with a global prefix and a DTO imported from another file.
import { VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('ledger');
  app.enableVersioning({ type: VersioningType.URI });
  await app.listen(3000);
}
void bootstrap();
