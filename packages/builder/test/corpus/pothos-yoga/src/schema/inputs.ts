import { builder } from '../builder';

export const GuestInput = builder.inputType('GuestInput', {
  fields: (t) => ({
    fullName: t.string({ required: true }),
    email: t.string({ required: true }),
    phone: t.string(),
  }),
});

export const RoomKind = builder.enumType('RoomKind', { values: ['single', 'double', 'suite'] as const });
