import type { NextApiRequest, NextApiResponse } from 'next';
import { prisma } from '../../../lib/prisma';

async function updateOrder(req: NextApiRequest, res: NextApiResponse, id: string) {
  const { quantity, status } = req.body;
  const order = await prisma.order.update({ where: { id }, data: { quantity, status } });
  return res.status(200).json(order);
}

export default async function orderHandler(req: NextApiRequest, res: NextApiResponse) {
  const { query: { id }, method } = req;
  if (method === 'PUT' || method === 'PATCH') {
    return updateOrder(req, res, String(id));
  }
  if (method === 'DELETE') {
    await prisma.order.delete({ where: { id: String(id) } });
    return res.status(204).end();
  }
  const order = await prisma.order.findUnique({ where: { id: String(id) } });
  return res.status(200).json(order);
}
