// Corpus fixture: Hono sub-apps mounted with app.route and a basePath.
import { Hono } from 'hono';
import { messages } from './messages.js';

const root = new Hono().basePath('/api');
root.route('/messages', messages);
export default root;
