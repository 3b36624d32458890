const User = require('../models/user');

// Puts the session's user on ctx.state for the routes below.
module.exports = async function currentUser(ctx, next) {
  const sessionId = ctx.cookies.get('sid');
  if (sessionId) ctx.state.user = await User.findOne({ sessionId });
  await next();
};
