import { builder } from '../builder';
import { db } from '../db';

builder.relayMutationField(
  'addReview',
  {
    inputFields: (t) => ({
      bookingId: t.id({ required: true }),
      stars: t.int({ required: true }),
      comment: t.string(),
    }),
  },
  {
    resolve: async (_root, args) => {
      const review = await db.review.create({ data: { bookingId: String(args.input.bookingId), stars: args.input.stars, comment: args.input.comment } });
      return { reviewId: review.id };
    },
  },
  {
    outputFields: (t) => ({
      reviewId: t.exposeID('reviewId'),
    }),
  },
);
