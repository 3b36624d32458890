const express = require('express');
const bookingRoutes = require('./bookings');
const paymentRoutes = require('./payments');

const router = express.Router();

const apiRoutes = [
  { path: '/bookings', route: bookingRoutes },
  { path: '/payments', route: paymentRoutes },
];

apiRoutes.forEach((route) => {
  router.use(route.path, route.route);
});

module.exports = router;
