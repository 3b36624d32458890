// Corpus fixture: an Express app whose routers live in other files and are mounted under prefixes.
import express from 'express';
import api from './routes/index.js';
import { hooks } from './routes/hooks.js';

const server = express();
server.use(express.json());
server.use('/api', api);
server.use('/hooks', hooks);
server.listen(3000);
