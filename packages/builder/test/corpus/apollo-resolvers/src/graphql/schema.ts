import gql from 'graphql-tag';

export const typeDefs = gql`
  type Order { id: ID! status: String! }
  input CreateOrderInput { listingId: ID! quantity: Int! shippingAddressId: ID! }
  type Query { order(id: ID!): Order me: User }
  type User { id: ID! name: String }
  input ProfileInput { displayName: String bio: String }
  type Mutation {
    createOrder(input: CreateOrderInput!): Order
    addLineItem(orderId: ID!, sku: String!, quantity: Int!): Order
    cancelOrder(id: ID!): Order
    refundPayment(orderId: ID!, amountCents: Int): Boolean
    updateProfile(input: ProfileInput!): User
  }
`;
