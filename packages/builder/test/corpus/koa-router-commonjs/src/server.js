const Koa = require('koa');
const bodyParser = require('koa-bodyparser');
const mount = require('koa-mount');
const mongoose = require('mongoose');
const api = require('./routes');
const legacy = require('./routes/legacy');
const currentUser = require('./middleware/current-user');

const app = new Koa();

app.use(bodyParser());
app.use(currentUser);
app.use(api.routes()).use(api.allowedMethods());
// The v1 signup clients still call; served under its old path.
app.use(mount('/legacy', legacy));

mongoose.connect(process.env.MONGO_URL || 'mongodb://localhost:27017/teamspace').then(() => app.listen(process.env.PORT || 3000));
