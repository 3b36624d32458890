import Router from '@koa/router';
import orders from './orders';
import { paymentsRouter } from './payments';
import webhooks from './webhooks';

const api = new Router({ prefix: '/api' });

api.get('/health', (ctx) => {
  ctx.body = { ok: true };
});
api.use('/v1', orders.routes(), orders.allowedMethods());
api.use('/v1', paymentsRouter.routes(), paymentsRouter.allowedMethods());
api.use(webhooks.routes());

export default api;
