import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { createPaymentIntent, refundPayment } from '../controllers/payments';

export const paymentsRouter = new Router();
paymentsRouter.prefix('/payments');

paymentsRouter.post('/', bodyParser({ enableTypes: ['json'] }), createPaymentIntent);
paymentsRouter.post('payments.refund', '/:paymentId/refunds', refundPayment);
