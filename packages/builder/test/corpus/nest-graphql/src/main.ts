import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  // REST routes get /api; the GraphQL endpoint keeps its own path (no useGlobalPrefix).
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
