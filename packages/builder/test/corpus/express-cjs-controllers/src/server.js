const express = require('express');
const routes = require('./routes');
const eventRoutes = require('./routes/events');

const app = express();
app.use('/api/events', eventRoutes);
app.use(express.json());
app.use('/api', routes);

app.listen(process.env.PORT || 3000);
