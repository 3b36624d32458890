const express = require('express');
const { createBooking, updateBooking: patchBooking } = require('../controllers/bookingController');
const cancelBooking = require('../controllers/cancelBooking');

const router = express.Router();

router.post('/', createBooking);
router.patch('/:id', patchBooking);
router.post('/:id/cancel', cancelBooking);

module.exports = router;
