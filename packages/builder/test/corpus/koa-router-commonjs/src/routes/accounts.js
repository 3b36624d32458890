const Router = require('koa-router');
const accounts = require('../controllers/accounts');

const router = new Router({ prefix: '/accounts' });

router
  .param('accountId', accounts.load)
  .get('/:accountId', accounts.show)
  .post('/', accounts.create)
  .patch('/:accountId', accounts.update);

module.exports = router;
