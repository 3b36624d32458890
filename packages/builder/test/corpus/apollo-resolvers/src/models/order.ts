import mongoose from 'mongoose';

const orderSchema = new mongoose.Schema({
  buyerId: String, listingId: String, quantity: Number, shippingAddressId: String, status: { type: String, default: 'open' },
  paymentIntentId: String, lines: [{ sku: String, quantity: Number }],
});

export const Order = mongoose.model('Order', orderSchema);
