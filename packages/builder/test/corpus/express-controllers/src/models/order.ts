import mongoose from 'mongoose';

const orderSchema = new mongoose.Schema({
  user: { type: String, required: true },
  orderItems: [{ product: String, qty: Number, price: Number }],
  shippingAddress: { address: String, city: String, postalCode: String, country: String },
  totalPrice: { type: Number, required: true },
  isPaid: { type: Boolean, default: false },
  paymentResult: { id: String, status: String },
});

export const Order = mongoose.model('Order', orderSchema);
