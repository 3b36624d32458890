import type { Request, Response } from 'express';
import asyncHandler from 'express-async-handler';
import Stripe from 'stripe';
import { Order } from '../models/order.js';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

// @route POST /api/orders
const addOrderItems = asyncHandler(async (req: Request, res: Response) => {
  const { orderItems, shippingAddress, totalPrice } = req.body;
  if (!orderItems || orderItems.length === 0) {
    res.status(400).json({ message: 'No order items' });
    return;
  }
  const order = await Order.create({ user: String(req.headers['x-user-id']), orderItems, shippingAddress, totalPrice });
  res.status(201).json(order);
});

// @route GET /api/orders/:id
const getOrderById = asyncHandler(async (req: Request, res: Response) => {
  const order = await Order.findById(req.params.id);
  if (!order) {
    res.status(404).json({ message: 'Order not found' });
    return;
  }
  res.json(order);
});

// @route GET /api/orders
const getOrders = asyncHandler(async (_req: Request, res: Response) => {
  res.json(await Order.find({}));
});

// @route PUT /api/orders/:id/pay
export const payOrder = asyncHandler(async (req: Request, res: Response) => {
  const order = await Order.findById(req.params.id);
  if (!order) {
    res.status(404).json({ message: 'Order not found' });
    return;
  }
  const { paymentMethodId } = req.body;
  const intent = await stripe.paymentIntents.create({
    amount: Math.round(order.totalPrice * 100),
    currency: 'usd',
    payment_method: paymentMethodId,
    confirm: true,
  });
  order.isPaid = intent.status === 'succeeded';
  order.paymentResult = { id: intent.id, status: intent.status };
  res.json(await order.save());
});

// @route PUT /api/orders/:id/paid — the client captured the payment with PayPal and reports its capture
export const markOrderPaid = asyncHandler(async (req: Request, res: Response) => {
  const order = await Order.findById(req.params.id);
  if (!order) {
    res.status(404).json({ message: 'Order not found' });
    return;
  }
  order.isPaid = true;
  order.paymentResult = { id: req.body.id, status: req.body.status };
  res.json(await order.save());
});

// @route DELETE /api/orders/:id
export async function cancelOrder(req: Request, res: Response) {
  await Order.deleteOne({ _id: req.params.id });
  res.status(204).end();
}

export { addOrderItems, getOrderById, getOrders };
