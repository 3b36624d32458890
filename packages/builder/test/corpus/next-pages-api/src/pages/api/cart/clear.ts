import type { NextApiRequest, NextApiResponse } from 'next';
import { prisma } from '../../../lib/prisma';

// No method check and no body: the cart button calls it with axios.delete.
export default async function clearCart(req: NextApiRequest, res: NextApiResponse) {
  await prisma.cartItem.deleteMany({ where: { sessionId: String(req.cookies.sid) } });
  res.status(204).end();
}
