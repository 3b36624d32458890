import { Router } from 'express';
import { chargeOrder } from '../lib/billing.js';
import { db } from '../lib/db.js';

// Not called app or router: recognised because it comes from Router().
const checkout = Router();

checkout.post('/', async (req, res) => {
  const { cartId, amount, currency } = req.body;
  const order = await db.query('INSERT INTO orders (cart_id, amount, currency) VALUES ($1, $2, $3) RETURNING id', [cartId, amount, currency]);
  const payment = await chargeOrder(order.rows[0].id, amount, currency);
  res.status(201).json({ order: order.rows[0], payment });
});

checkout.post('/:orderId/refund', async (req, res) => {
  const reason = req.body.reason;
  await db.query('UPDATE orders SET status = $1, refund_reason = $2 WHERE id = $3', ['refunding', reason, req.params.orderId]);
  res.status(202).end();
});

checkout.delete('/:orderId', async (req, res) => {
  await db.query('DELETE FROM orders WHERE id = $1', [req.params.orderId]);
  res.status(204).end();
});

export default checkout;
