import Router from '@koa/router';
import { cancelOrder, createOrder, listOrders, updateShipping } from '../controllers/orders';

const router = new Router({ prefix: '/orders' });

router.get('orders.list', '/', listOrders);
router.post('orders.create', '/', createOrder);
router.patch('/:orderId/shipping', updateShipping);
router.del('orders.cancel', '/:orderId', cancelOrder);

export default router;
