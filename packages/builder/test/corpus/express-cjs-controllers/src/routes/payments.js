const router = require('express').Router();
const payments = require('../controllers/paymentController');

router.post('/charge', payments.charge);
router.post('/:id/refund', payments.refund);

module.exports = router;
