const Team = require('../models/team');

exports.create = async (ctx) => {
  const team = await Team.create({ name: ctx.request.body.name, owner: ctx.state.user._id });
  ctx.status = 201;
  ctx.body = team;
};

exports.addMember = async (ctx) => {
  const { userId, role } = ctx.request.body;
  await Team.updateOne({ _id: ctx.params.teamId }, { $push: { members: { user: userId, role } } });
  ctx.status = 204;
};

exports.removeMember = async (ctx) => {
  await Team.updateOne({ _id: ctx.params.teamId }, { $pull: { members: { user: ctx.params.userId } } });
  ctx.status = 204;
};
