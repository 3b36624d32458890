import type { NextApiRequest, NextApiResponse } from 'next';
import { prisma } from '../../../../lib/prisma';

// No method check: the order page sends PUT through putJSON (src/lib/api-client.ts).
export default async function saveNote(req: NextApiRequest, res: NextApiResponse) {
  const { note } = req.body;
  const order = await prisma.order.update({ where: { id: String(req.query.id) }, data: { note } });
  res.status(200).json(order);
}
