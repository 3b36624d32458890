import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@apollo/server/express4';
import cors from 'cors';
import express from 'express';
import { applyMiddleware } from 'graphql-middleware';
import { createContext } from './context';
import { permissions } from './permissions';
import { schema } from './schema';

const app = express();
const server = new ApolloServer({ schema: applyMiddleware(schema, permissions) });
await server.start();

app.use('/api/graphql', cors(), express.json(), expressMiddleware(server, { context: createContext }));
app.listen(4000);
