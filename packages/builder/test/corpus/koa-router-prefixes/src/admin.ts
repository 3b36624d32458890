import Koa from 'koa';
import Router from '@koa/router';
import { prisma } from './db';

const router = new Router();

router.post('/reindex', async (ctx) => {
  const { collection } = ctx.request.body as { collection: string };
  await prisma.reindexJob.create({ data: { collection, requestedBy: ctx.state.user.id } });
  ctx.status = 202;
});

export const adminApp = new Koa();
adminApp.use(router.routes());
