import { makeSchema } from 'nexus';
import { join } from 'node:path';
import * as auth from './auth';
import * as inputs from './inputs';
import * as order from './order';
import * as payment from './payment';

export const schema = makeSchema({
  types: [auth, inputs, order, payment],
  outputs: { schema: join(__dirname, '../../schema.graphql'), typegen: join(__dirname, '../generated/nexus.ts') },
  contextType: { module: join(__dirname, '../context.ts'), export: 'Context' },
});
