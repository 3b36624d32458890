import express from 'express';
import checkouts from './routes/checkouts.js';
import paypal from './routes/paypal.js';
import adyen from './routes/adyen.js';

const app = express();
app.use(express.json());
app.use('/checkouts', checkouts);
app.use('/api/paypal', paypal);
app.use('/api/adyen', adyen);

app.listen(process.env.PORT ?? 3000);
