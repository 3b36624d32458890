const Router = require('koa-router');
const accounts = require('./accounts');
const teams = require('./teams');
const invitations = require('./invitations');

const api = new Router();
api.prefix('/api/v2');

for (const router of [accounts, teams]) {
  api.use(router.routes(), router.allowedMethods());
}
api.use('/invitations', invitations);

module.exports = api;
