const Stripe = require('stripe');
const db = require('../db');

const stripe = Stripe(process.env.STRIPE_SECRET_KEY);

exports.handleStripeEvent = async (req, res) => {
  let event;
  try {
    event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'], process.env.STRIPE_WEBHOOK_SECRET);
  } catch (err) {
    res.status(400).send(`Webhook Error: ${err.message}`);
    return;
  }
  if (event.type === 'charge.refunded') {
    await db.query("UPDATE bookings SET status = 'refunded' WHERE charge_id = $1", [event.data.object.id]);
  }
  res.json({ received: true });
};
