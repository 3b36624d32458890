const express = require('express');
const bookingRoutes = require('./routes/bookings');
const paymentRoutes = require('./routes/payments');
const eventRoutes = require('./routes/events');

const app = express();
app.use('/api/events', eventRoutes);
app.use(express.json());
app.use('/api/bookings', bookingRoutes);
app.use('/api/payments', paymentRoutes);

app.listen(process.env.PORT || 3000);
