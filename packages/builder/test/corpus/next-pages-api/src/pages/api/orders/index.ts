import type { NextApiRequest, NextApiResponse } from 'next';
import { prisma } from '../../../lib/prisma';

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  switch (req.method) {
    case 'GET': {
      const orders = await prisma.order.findMany({ where: { status: String(req.query.status ?? 'pending') } });
      return res.status(200).json(orders);
    }
    case 'POST': {
      const { bookId, quantity } = req.body;
      const order = await prisma.order.create({ data: { bookId, quantity } });
      return res.status(201).json(order);
    }
    default:
      res.setHeader('Allow', ['GET', 'POST']);
      return res.status(405).end(`Method ${req.method} Not Allowed`);
  }
}
