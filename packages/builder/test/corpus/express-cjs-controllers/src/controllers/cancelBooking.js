const db = require('../db');

module.exports = async function cancelBooking(req, res) {
  const { reason } = req.body;
  await db.query("UPDATE bookings SET status = 'cancelled', cancel_reason = $1 WHERE id = $2", [reason, req.params.id]);
  res.status(204).end();
};
