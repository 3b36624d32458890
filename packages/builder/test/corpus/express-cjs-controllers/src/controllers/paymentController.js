const Stripe = require('stripe');
const db = require('../db');

const stripe = Stripe(process.env.STRIPE_SECRET_KEY);

async function charge(req, res) {
  const { bookingId, amount, currency } = req.body;
  const result = await stripe.charges.create({ amount, currency, source: req.body.source, metadata: { bookingId } });
  await db.query('UPDATE bookings SET charge_id = $1 WHERE id = $2', [result.id, bookingId]);
  res.status(201).json({ chargeId: result.id });
}

async function refund(req, res) {
  const { amount } = req.body;
  const result = await stripe.refunds.create({ charge: req.params.id, amount });
  res.json({ refundId: result.id });
}

module.exports = { charge, refund };
