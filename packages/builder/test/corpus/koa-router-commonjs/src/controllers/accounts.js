const Account = require('../models/account');

module.exports = {
  async load(accountId, ctx, next) {
    ctx.state.account = await Account.findById(accountId);
    if (!ctx.state.account) ctx.throw(404);
    return next();
  },

  async show(ctx) {
    ctx.body = ctx.state.account;
  },

  async create(ctx) {
    const { name, plan, billingEmail } = ctx.request.body;
    const account = await Account.create({ name, plan, billingEmail, owner: ctx.state.user._id });
    ctx.status = 201;
    ctx.body = account;
  },

  async update(ctx) {
    const { body } = ctx.request;
    ctx.state.account.set({ name: body.name, billingEmail: body.billingEmail });
    ctx.body = await ctx.state.account.save();
  },
};
