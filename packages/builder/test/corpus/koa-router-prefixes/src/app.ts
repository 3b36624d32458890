import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import jwt from 'koa-jwt';
import mount from 'koa-mount';
import api from './routes';
import { adminApp } from './admin';

const app = new Koa();

app.use(bodyParser());
// Sets ctx.state.user from the bearer token; routes decide whether they need one.
app.use(jwt({ secret: process.env.JWT_SECRET ?? 'dev-secret', passthrough: true }));
app.use(api.routes()).use(api.allowedMethods());
app.use(mount('/internal', adminApp));

app.listen(Number(process.env.PORT ?? 3000));
