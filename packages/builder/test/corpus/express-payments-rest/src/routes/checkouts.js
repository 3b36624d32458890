import { Router } from 'express';
import { gateway } from '../lib/gateway.js';

const router = Router();

router.post('/', async (req, res) => {
  const { amount, paymentMethodNonce } = req.body;
  const result = await gateway.transaction.sale({
    amount,
    paymentMethodNonce,
    options: { submitForSettlement: true },
  });
  res.status(result.success ? 201 : 422).json({ id: result.transaction?.id });
});

router.post('/:transactionId/refunds', async (req, res) => {
  const result = await gateway.transaction.refund(req.params.transactionId, req.body.amount);
  res.json({ id: result.transaction?.id });
});

router.post('/:transactionId/settlement', async (req, res) => {
  const result = await gateway.transaction.submitForSettlement(req.params.transactionId, req.body.amount, { apiRequestKey: req.get('Idempotency-Key') });
  res.json({ status: result.transaction?.status });
});

export default router;
