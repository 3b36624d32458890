import express from 'express';
import { db } from '../lib/db.js';

const accounts = express.Router();

accounts.post('/signup', async (req, res) => {
  const { email, password, displayName } = req.body;
  await db.query('INSERT INTO users (email, password_hash, name) VALUES ($1, crypt($2, gen_salt($3)), $4)', [email, password, 'bf', displayName]);
  res.status(201).end();
});

accounts.post('/login', async (req, res) => {
  const { email, password } = req.body;
  res.json({ token: await issueToken(email, password) });
});

async function issueToken(email: string, password: string): Promise<string> {
  return `${email}:${password.length}`;
}

export default accounts;
