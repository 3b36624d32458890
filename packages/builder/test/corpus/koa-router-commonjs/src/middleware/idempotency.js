const Redis = require('ioredis');

const redis = new Redis(process.env.REDIS_URL);

// Rejects a second request with the same Idempotency-Key within an hour.
module.exports = function idempotency() {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    const fresh = await redis.set(`idem:${ctx.state.user._id}:${key}`, 'processing', 'EX', 3600, 'NX');
    if (!fresh) ctx.throw(409, 'duplicate request');
    await next();
  };
};
