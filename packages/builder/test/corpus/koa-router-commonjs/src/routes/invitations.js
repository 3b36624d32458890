const Router = require('koa-router');
const invitations = require('../controllers/invitations');

const router = new Router();

router.post('/', invitations.send);
router.post('/:token/accept', invitations.accept);

module.exports = router.routes();
