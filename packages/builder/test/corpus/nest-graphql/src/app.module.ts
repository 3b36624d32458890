import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { join } from 'node:path';
import { OrdersResolver } from './orders/orders.resolver';
import { PaymentsResolver } from './payments/payments.resolver';
import { AuthResolver } from './auth/auth.resolver';
import { ExportsController } from './orders/exports.controller';

@Module({
  imports: [
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      autoSchemaFile: join(process.cwd(), 'src/schema.gql'),
      path: '/gql',
      subscriptions: { 'graphql-ws': { path: '/gql/subscriptions' } },
      context: ({ req }) => ({ req }),
    }),
  ],
  controllers: [ExportsController],
  providers: [OrdersResolver, PaymentsResolver, AuthResolver],
})
export class AppModule {}
