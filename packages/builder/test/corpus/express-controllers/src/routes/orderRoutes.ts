import { Router } from 'express';
import { addOrderItems, cancelOrder, getOrderById, getOrders, markOrderPaid, payOrder } from '../controllers/orderController.js';
import { admin, protect } from '../middleware/auth.js';

const router = Router();

router.route('/').post(protect, addOrderItems).get(protect, admin, getOrders);
router.route('/:id').get(protect, getOrderById);
router.put('/:id/pay', protect, payOrder);
router.put('/:id/paid', protect, markOrderPaid);
router.delete('/:id', protect, cancelOrder);

export default router;
