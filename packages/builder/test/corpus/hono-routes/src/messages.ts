import { Hono } from 'hono';
import Database from 'better-sqlite3';

const db = new Database('notify.db');
export const messages = new Hono();

messages.post('/', async (c) => {
  const { recipient, template, locale } = await c.req.json();
  db.prepare('INSERT INTO outbox (recipient, template, locale) VALUES (?, ?, ?)').run(recipient, template, locale);
  await sendMail(recipient, template);
  return c.json({ queued: true }, 202);
});

messages.delete('/:messageId', (c) => {
  db.prepare('DELETE FROM outbox WHERE id = ?').run(c.req.param('messageId'));
  return c.body(null, 204);
});

async function sendMail(to: string, template: string): Promise<void> {
  await fetch('https://mail.example.com/send', { method: 'POST', body: JSON.stringify({ to, template }) });
}
