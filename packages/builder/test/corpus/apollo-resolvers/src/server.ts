import express from 'express';
import cors from 'cors';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@apollo/server/express4';
import mongoose from 'mongoose';
import { typeDefs } from './graphql/schema';
import { resolvers } from './graphql/resolvers';
import { stripeWebhook } from './webhooks/stripe';

const app = express();
const server = new ApolloServer({ typeDefs, resolvers });
await server.start();
await mongoose.connect(process.env.MONGO_URL ?? 'mongodb://localhost/marketplace');

app.post('/webhooks/stripe', express.raw({ type: 'application/json' }), stripeWebhook);
app.use(
  '/api/graphql',
  cors(),
  express.json(),
  expressMiddleware(server, { context: async ({ req }) => ({ user: (req as { user?: { id: string } }).user }) }),
);

app.listen(4000);
