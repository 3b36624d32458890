import { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { accessToken, base } from '../lib/paypal-auth.js';

const router = Router();

router.post('/orders', async (req, res) => {
  const { cart } = req.body;
  const token = await accessToken();
  const response = await fetch(`${base}/v2/checkout/orders`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: cart.total } }] }),
  });
  res.status(response.status).json(await response.json());
});

router.post('/orders/:orderID/capture', async (req, res) => {
  const { orderID } = req.params;
  const token = await accessToken();
  const headers = {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${token}`,
    'PayPal-Request-Id': randomUUID(),
  };
  const response = await fetch(`${base}/v2/checkout/orders/${orderID}/capture`, { method: 'POST', headers });
  res.status(response.status).json(await response.json());
});

router.post('/captures/:captureId/refund', async (req, res) => {
  const { amount, orderId } = req.body;
  const token = await accessToken();
  const options = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'PayPal-Request-Id': `refund-${orderId}-${amount}` },
    body: JSON.stringify({ amount: { value: amount, currency_code: 'USD' } }),
  };
  const response = await fetch(`${base}/v2/payments/captures/${req.params.captureId}/refund`, options);
  res.status(response.status).json(await response.json());
});

export default router;
