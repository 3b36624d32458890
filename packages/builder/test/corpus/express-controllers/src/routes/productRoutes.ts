import { Router } from 'express';
import { createProduct, createProductReview } from '../controllers/index.js';
import { admin, protect } from '../middleware/auth.js';

const router = Router();

router.post('/', protect, admin, createProduct);
router.post('/:id/reviews', protect, createProductReview);

export default router;
