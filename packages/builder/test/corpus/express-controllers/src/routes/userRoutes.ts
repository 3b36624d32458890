import express from 'express';
import * as users from '../controllers/userController.js';
import { protect } from '../middleware/auth.js';

const router = express.Router();

router.post('/', users.registerUser);
router.post('/login', users.authUser);
router.put('/profile', protect, users.updateUserProfile);

export default router;
