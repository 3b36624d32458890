import { Router } from 'express';
import orders from './orders.js';
import accounts from './accounts.js';

export default Router()
  .use('/orders', orders)
  .use(accounts);
