import nodemailer from 'nodemailer';
import { User } from '../../models/user';

const mailer = nodemailer.createTransport({ host: process.env.SMTP_HOST });

export const userResolvers = {
  Query: {
    me: (_: unknown, __: unknown, ctx: { user?: { id: string } }) => User.findById(ctx.user?.id),
  },
  Mutation: {
    updateProfile: async (_: unknown, { input }: { input: { displayName?: string; bio?: string } }, ctx: { user?: { id: string; email: string } }) => {
      const { displayName, bio } = input;
      const user = await User.findByIdAndUpdate(ctx.user?.id, { displayName, bio }, { new: true });
      await mailer.sendMail({ to: ctx.user?.email, subject: 'Your profile changed' });
      return user;
    },
  },
};
