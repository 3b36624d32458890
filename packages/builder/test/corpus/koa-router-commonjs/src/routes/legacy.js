const Router = require('koa-router');
const User = require('../models/user');

const router = new Router();

router.post('/signup', async (ctx) => {
  const { email, password, displayName } = ctx.request.body;
  const user = await User.create({ email, password, displayName });
  ctx.status = 201;
  ctx.body = { id: user._id };
});

module.exports = router.middleware();
