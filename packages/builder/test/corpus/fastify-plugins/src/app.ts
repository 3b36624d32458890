// Corpus fixture: Fastify with plugins registered under prefixes, a webhook verified in a preHandler.
import Fastify from 'fastify';
import bookings from './routes/bookings.js';
import { partnerHooks } from './routes/partner-hooks.js';
import { payouts } from './routes/payouts.js';
import mysql from 'mysql2/promise';

export const pool = mysql.createPool({ uri: process.env.DATABASE_URL });
const instance = Fastify({ logger: true });
instance.register(bookings, { prefix: '/v1/bookings' });
instance.register(partnerHooks, { prefix: '/partners' });
instance.register(payouts, { prefix: '/v1/payouts' });
await instance.listen({ port: 3000 });
