import mongoose from 'mongoose';

const productSchema = new mongoose.Schema({
  name: String,
  price: Number,
  countInStock: Number,
  reviews: [{ rating: Number, comment: String, user: String }],
});

export const Product = mongoose.model('Product', productSchema);
