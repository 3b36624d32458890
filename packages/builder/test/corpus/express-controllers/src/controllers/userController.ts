import type { Request, Response } from 'express';
import { User } from '../models/user.js';

export const registerUser = async (req: Request, res: Response) => {
  const { name, email, password } = req.body;
  if (await User.findOne({ email })) {
    res.status(400).json({ message: 'User already exists' });
    return;
  }
  const user = await User.create({ name, email, password });
  res.status(201).json({ id: user.id, name: user.name, email: user.email });
};

export const authUser = async (req: Request, res: Response) => {
  const { email, password } = req.body;
  const user = await User.findOne({ email });
  if (!user || user.password !== password) {
    res.status(401).json({ message: 'Invalid email or password' });
    return;
  }
  res.json({ id: user.id, token: Buffer.from(user.id).toString('base64url') });
};

export const updateUserProfile = async (req: Request, res: Response) => {
  const user = await User.findById(req.headers['x-user-id']);
  if (!user) {
    res.status(404).json({ message: 'User not found' });
    return;
  }
  user.name = req.body.name || user.name;
  user.email = req.body.email || user.email;
  const updated = await user.save();
  res.json({ id: updated.id, name: updated.name, email: updated.email });
};
