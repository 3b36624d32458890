import { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { CheckoutAPI, Client } from '@adyen/api-library';

const client = new Client({ apiKey: process.env.ADYEN_API_KEY, environment: 'TEST' });
const checkout = new CheckoutAPI(client);
const merchantAccount = process.env.ADYEN_MERCHANT_ACCOUNT;
const router = Router();

router.post('/payments', async (req, res) => {
  const { amount, reference, paymentMethod } = req.body;
  const idempotencyKey = req.get('Idempotency-Key');
  const response = await checkout.PaymentsApi.payments({ amount, reference, paymentMethod, merchantAccount }, { idempotencyKey });
  res.json(response);
});

router.post('/payments/:pspReference/captures', async (req, res) => {
  const { amount } = req.body;
  const response = await checkout.ModificationsApi.captureAuthorisedPayment(req.params.pspReference, { amount, merchantAccount }, { idempotencyKey: randomUUID() });
  res.json(response);
});

router.post('/payments/:pspReference/refunds', async (req, res) => {
  const { amount, orderId } = req.body;
  const requestOptions = { idempotencyKey: `refund-${orderId}-${amount.value}` };
  const response = await checkout.ModificationsApi.refundCapturedPayment(req.params.pspReference, { amount, merchantAccount }, requestOptions);
  res.json(response);
});

router.post('/payments/:pspReference/cancels', async (req, res) => {
  const response = await checkout.ModificationsApi.cancelAuthorisedPaymentByPspReference(req.params.pspReference, { merchantAccount });
  res.json(response);
});

router.post('/payments/:pspReference/amount-updates', async (req, res) => {
  const { amount } = req.body;
  const response = await checkout.ModificationsApi.updateAuthorisedAmount(req.params.pspReference, { amount, merchantAccount, reason: 'delayedCharge' }, { idempotencyKey: `update-${req.params.pspReference}` });
  res.json(response);
});

export default router;
