import mongoose from 'mongoose';

export const User = mongoose.model('User', new mongoose.Schema({ displayName: String, bio: String, email: String }));
