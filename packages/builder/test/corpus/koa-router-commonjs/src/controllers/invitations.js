const crypto = require('crypto');
const Invitation = require('../models/invitation');
const mailer = require('../lib/mailer');

async function send(ctx) {
  const { email, teamId } = ctx.request.body;
  const token = crypto.randomBytes(16).toString('hex');
  await Invitation.create({ email, teamId, token, invitedBy: ctx.state.user._id });
  await mailer.sendMail({ to: email, subject: 'You are invited', text: `Accept: https://teamspace.example/invite/${token}` });
  ctx.status = 202;
}

async function accept(ctx) {
  const { request: { body } } = ctx;
  const invitation = await Invitation.findOneAndUpdate({ token: ctx.params.token, acceptedAt: null }, { acceptedAt: new Date(), displayName: body.displayName });
  if (!invitation) ctx.throw(410, 'invitation used or expired');
  ctx.body = { teamId: invitation.teamId };
}

module.exports = { send, accept };
