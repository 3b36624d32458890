const router = require('koa-router')();
const teams = require('../controllers/teams');
const idempotency = require('../middleware/idempotency');

router.post('/teams', idempotency(), teams.create);
router.post('teams.members.add', '/teams/:teamId/members', teams.addMember);
router.del('/teams/:teamId/members/:userId', teams.removeMember);

module.exports = router;
