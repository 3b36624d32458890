import { enumType, inputObjectType } from 'nexus';

export const ShipmentInput = inputObjectType({
  name: 'ShipmentInput',
  definition(t) {
    t.nonNull.string('carrier');
    t.nonNull.string('trackingCode');
    t.int('weightGrams');
  },
});

export const OrderStatus = enumType({ name: 'OrderStatus', members: ['PLACED', 'PACKED', 'SHIPPED', 'CANCELLED'] });
export const SortDirection = enumType({ name: 'SortDirection', members: ['asc', 'desc'] });
