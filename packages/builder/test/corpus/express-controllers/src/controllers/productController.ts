import type { Request, Response } from 'express';
import asyncHandler from 'express-async-handler';
import { Product } from '../models/product.js';

export const createProduct = asyncHandler(async (req: Request, res: Response) => {
  const { name, price, countInStock } = req.body;
  const product = new Product({ name, price, countInStock, reviews: [] });
  res.status(201).json(await product.save());
});

export const createProductReview = asyncHandler(async (req: Request, res: Response) => {
  const { rating, comment } = req.body;
  const product = await Product.findById(req.params.id);
  if (!product) {
    res.status(404).json({ message: 'Product not found' });
    return;
  }
  product.reviews.push({ rating: Number(rating), comment, user: String(req.headers['x-user-id']) });
  await product.save();
  res.status(201).json({ message: 'Review added' });
});
