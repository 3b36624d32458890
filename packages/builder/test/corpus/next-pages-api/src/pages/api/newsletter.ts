import type { NextApiRequest, NextApiResponse } from 'next';
import { Resend } from 'resend';

const resend = new Resend(process.env.RESEND_API_KEY);

// No method check: Next.js routes every method here; the form posts.
export default async function subscribe(req: NextApiRequest, res: NextApiResponse) {
  const email = req.body.email;
  await resend.emails.send({ from: 'news@bookshop.test', to: email, subject: 'Welcome' });
  res.status(200).json({ ok: true });
}
