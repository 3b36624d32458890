import { PrismaClient } from '@prisma/client';
import Stripe from 'stripe';

const prisma = new PrismaClient();
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export interface Context {
  prisma: PrismaClient;
  stripe: Stripe;
  userId?: string;
}

export async function createContext({ req }: { req: { headers: Record<string, string | undefined> } }): Promise<Context> {
  return { prisma, stripe, userId: req.headers['x-user-id'] };
}
