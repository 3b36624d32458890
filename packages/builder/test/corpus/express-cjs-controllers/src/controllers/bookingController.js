const db = require('../db');

exports.createBooking = async (req, res, next) => {
  try {
    const { roomId, checkIn, checkOut, guests } = req.body;
    const { rows } = await db.query(
      'INSERT INTO bookings (room_id, check_in, check_out, guests) VALUES ($1, $2, $3, $4) RETURNING *',
      [roomId, checkIn, checkOut, guests],
    );
    res.status(201).json(rows[0]);
  } catch (err) {
    next(err);
  }
};

exports.updateBooking = async function (req, res) {
  const { checkIn, checkOut } = req.body;
  const { rows } = await db.query('UPDATE bookings SET check_in = $1, check_out = $2 WHERE id = $3 RETURNING *', [checkIn, checkOut, req.params.id]);
  res.json(rows[0]);
};
