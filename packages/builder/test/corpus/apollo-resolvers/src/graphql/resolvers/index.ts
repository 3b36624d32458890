import { orderMutations, orderQueries } from './orders';
import payments from './payments';
import { userResolvers } from './users';

// One map for Apollo, merged from the modules' own maps.
export const resolvers = {
  Query: { ...orderQueries, ...userResolvers.Query },
  Mutation: {
    ...orderMutations,
    ...payments.Mutation,
    ...userResolvers.Mutation,
  },
};
