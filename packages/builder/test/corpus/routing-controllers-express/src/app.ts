import 'reflect-metadata';
import express from 'express';
import { useExpressServer } from 'routing-controllers';
import { config } from './config';

const app = express();
useExpressServer(app, {
  routePrefix: config.api.prefix,
  controllers: config.controllers,
  authorizationChecker: async (action) => Boolean(action.request.headers.authorization),
});
app.listen(3000);
