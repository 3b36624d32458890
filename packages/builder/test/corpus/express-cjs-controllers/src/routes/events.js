const express = require('express');
const events = require('../controllers/stripeEvents');

const router = express.Router();

router.post('/stripe', express.raw({ type: 'application/json' }), events.handleStripeEvent);

module.exports = router;
