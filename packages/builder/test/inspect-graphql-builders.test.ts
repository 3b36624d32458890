/**
 * Nexus and Pothos Mutation fields on small generated projects, for what the nexus-apollo and
 * pothos-yoga corpus fixtures do not cover: objectType({ name: 'Mutation' }) with same-file input
 * and enum types, the Pothos with-input plugin, a relay input ref implemented apart from its
 * declaration, and what is no mutation (a Query type, an objectType from another library, a
 * Mutation permission map outside graphql-shield's `shield`).
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('graphql-builders');

const ops = (endpoints: ReadonlyArray<{ route: string; operation?: string; bodyFields: readonly string[] }>) => endpoints.map((e) => `${e.route} ${e.operation} [${e.bodyFields.join(',')}]`).sort();

describe('Nexus', () => {
  it('objectType Mutation fields with same-file input objects and enums; the Query type and a look-alike objectType are not mutations', async () => {
    const dir = project({
      'package.json': '{ "dependencies": { "nexus": "^1.3.0", "graphql-yoga": "^5" } }',
      'src/schema.ts': [
        "import { arg, enumType, inputObjectType, intArg, nonNull, objectType, stringArg } from 'nexus';",
        "const Tier = enumType({ name: 'Tier', members: ['FREE', 'PRO'] });",
        "const SeatInput = inputObjectType({ name: 'SeatInput', definition(t) { t.nonNull.string('email'); t.string('role'); } });",
        "export const Query = objectType({ name: 'Query', definition(t) { t.list.field('seats', { type: 'Seat', args: { teamId: nonNull(intArg()) }, resolve: (_, a, ctx) => ctx.db.seat.findMany({ where: { teamId: a.teamId } }) }); } });",
        'export const Mutation = objectType({',
        "  name: 'Mutation',",
        '  definition(t) {',
        "    t.field('addSeat', { type: 'Seat', args: { teamId: nonNull(intArg()), seat: nonNull(arg({ type: SeatInput })) }, resolve: (_, args, ctx) => ctx.db.seat.create({ data: { teamId: args.teamId, ...args.seat } }) });",
        "    t.nonNull.boolean('changeTier', { args: { teamId: nonNull(intArg()), tier: arg({ type: 'Tier' }), note: stringArg() }, resolve: async (_, args, ctx) => { await ctx.db.team.update({ where: { id: args.teamId }, data: { tier: args.tier, note: args.note?.trim() } }); return true; } });",
        '  },',
        '});',
      ].join('\n'),
      // Same call name, another library: not Nexus, so not read as a schema.
      'src/forms.ts': "import { objectType } from './form-kit';\nexport const Mutation = objectType({ name: 'Mutation', definition(t) { t.field('notAMutation', {}); } });",
      'src/server.ts': "import { createYoga } from 'graphql-yoga';\nimport { createServer } from 'node:http';\nimport { schema } from './schema';\ncreateServer(createYoga({ schema })).listen(4000);",
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual([
      '/graphql mutation addSeat [teamId,email,role]',
      '/graphql mutation changeTier [teamId,tier,note]',
    ]);
  });

  it('a Mutation map kept for graphql-shield in a variable is rules, not resolvers', async () => {
    const dir = project({
      'src/permissions.ts': "import { allow, shield } from 'graphql-shield';\nconst rules = { Mutation: { addSeat: allow } };\nexport const permissions = shield(rules);",
      'src/resolvers.ts': "export const resolvers = { Mutation: { addSeat: (_parent, { email }) => seats.add(email) } };",
    });
    expect(ops((await inspectCodebase(dir)).endpoints)).toEqual(['/graphql mutation addSeat [email]']);
  });
});

describe('Pothos', () => {
  it('the with-input plugin, a prismaFieldWithInput (query first), and an inputRef implemented apart from its declaration', async () => {
    const dir = project({
      'package.json': '{ "dependencies": { "@pothos/core": "^3", "@pothos/plugin-with-input": "^3", "graphql-yoga": "^5" } }',
      'src/schema/team.ts': [
        "import { builder } from '../builder';",
        "const InviteRef = builder.inputRef<{ email: string; role?: string }>('InviteInput');",
        "InviteRef.implement({ fields: (t) => ({ email: t.string({ required: true }), role: t.string() }) });",
        'builder.mutationFields((t) => ({',
        '  renameTeam: t.fieldWithInput({',
        "    type: 'Boolean',",
        '    input: { teamId: t.input.id({ required: true }), name: t.input.string({ required: true }) },',
        '    resolve: async (_root, args) => { await db.team.update({ where: { id: args.input.teamId }, data: { name: args.input.name } }); return true; },',
        '  }),',
        '  archiveTeam: t.prismaFieldWithInput({',
        "    type: 'Team',",
        '    input: { teamId: t.input.id({ required: true }) },',
        '    resolve: (query, _root, args) => db.team.update({ ...query, where: { id: args.input.teamId }, data: { archived: true } }),',
        '  }),',
        '  invite: t.field({',
        "    type: 'Boolean',",
        '    args: { teamId: t.arg.id({ required: true }), invite: t.arg({ type: InviteRef, required: true }) },',
        '    resolve: async (_root, { teamId, invite }) => { await db.invite.create({ data: { teamId, ...invite } }); return true; },',
        '  }),',
        '}));',
      ].join('\n'),
      'src/server.ts': "import { createYoga } from 'graphql-yoga';\nimport { createServer } from 'node:http';\ncreateServer(createYoga({ schema, graphqlEndpoint: '/api' })).listen(4000);",
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual([
      '/api mutation archiveTeam [teamId]',
      '/api mutation invite [teamId,email,role]',
      '/api mutation renameTeam [teamId,name]',
    ]);
  });
});
