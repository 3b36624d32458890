import { rule, shield } from 'graphql-shield';
import type { Context } from './context';

const isSignedIn = rule()((_parent, _args, ctx: Context) => Boolean(ctx.userId));

// Rules per field: the resolvers themselves live in src/schema.
export const permissions = shield({
  Query: { orders: isSignedIn },
  Mutation: {
    placeOrder: isSignedIn,
    shipOrder: isSignedIn,
    capturePayment: isSignedIn,
  },
});
