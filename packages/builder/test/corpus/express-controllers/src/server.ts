import express from 'express';
import { connectDB } from './config/db.js';
import orderRoutes from './routes/orderRoutes.js';
import userRoutes from './routes/userRoutes.js';
import productRoutes from './routes/productRoutes.js';

await connectDB();
const app = express();
app.use(express.json());

app.use('/api/orders', orderRoutes);
app.use('/api/users', userRoutes);
app.use('/api/products', productRoutes);

app.listen(Number(process.env.PORT ?? 5000));
