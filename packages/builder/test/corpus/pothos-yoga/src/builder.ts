import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '@pothos/plugin-prisma/generated';
import type { Transporter } from 'nodemailer';
import { db } from './db';

export const builder = new SchemaBuilder<{ PrismaTypes: PrismaTypes; Context: { mailer: Transporter; guestId?: string } }>({
  plugins: [PrismaPlugin, RelayPlugin],
  prisma: { client: db },
  relay: { clientMutationId: 'omit', cursorType: 'String' },
});

builder.queryType({});

// Root mutations defined with the type itself.
builder.mutationType({
  fields: (t) => ({
    resetDemoData: t.boolean({
      resolve: async () => {
        await db.booking.deleteMany({ where: { demo: true } });
        return true;
      },
    }),
  }),
});
