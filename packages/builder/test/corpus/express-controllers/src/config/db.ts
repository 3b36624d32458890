import mongoose from 'mongoose';

export async function connectDB(): Promise<void> {
  await mongoose.connect(process.env.MONGO_URI ?? 'mongodb://127.0.0.1:27017/storefront');
}
