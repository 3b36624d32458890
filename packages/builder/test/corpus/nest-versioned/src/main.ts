// Corpus fixture: URI versioning with a default version, a global prefix with exclusions.
import { RequestMethod, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  // The channel manager calls back on a fixed URL: no `/api` in front of it.
  app.setGlobalPrefix('api', { exclude: [{ path: 'callbacks/channel-manager', method: RequestMethod.POST }] });
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  await app.listen(8080);
}
void bootstrap();
