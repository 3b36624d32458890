/**
 * GraphQL mutations and Next.js pages API routes as entry points, on small generated projects for
 * the conventions the corpus fixtures do not cover (type-graphql, Pothos, Yoga, Mercurius, Apollo 3,
 * standalone servers, ariadne, next-connect) and the things that must NOT be reported (queries,
 * Vuex mutations, the GraphQL transport route itself, a pages API reader).
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('graphql');

type Found = { method: string; route: string; operation?: string; bodyFields: readonly string[] };
const ops = (endpoints: readonly Found[]) => endpoints.map((e) => `${e.method} ${e.route}${e.operation ? ` ${e.operation}` : ''} [${e.bodyFields.join(',')}]`).sort();

describe('GraphQL mutations (TypeScript)', () => {
  it('type-graphql @Arg input objects, Pothos mutationField, Yoga graphqlEndpoint; queries and Vuex mutations are not entry points', async () => {
    const dir = project({
      'package.json': '{ "dependencies": { "graphql-yoga": "^5", "type-graphql": "^2", "@pothos/core": "^3" } }',
      'src/recipe.resolver.ts': [
        "import { Arg, Mutation, Query, Resolver } from 'type-graphql';",
        '@InputType() class RecipeInput { @Field() title!: string; @Field() servings!: number }',
        '@Resolver()',
        'export class RecipeResolver {',
        '  @Query(() => [Recipe]) recipes() { return db.recipes.findMany(); }',
        "  @Mutation(() => Recipe) addRecipe(@Arg('data') data: RecipeInput) { return db.recipes.create({ data }); }",
        "  @Mutation(() => Boolean) removeRecipe(@Arg('id') id: string) { return db.recipes.delete(id); }",
        '}',
      ].join('\n'),
      'src/pothos.ts': [
        "import SchemaBuilder from '@pothos/core';",
        'const builder = new SchemaBuilder({});',
        "builder.mutationField('rateRecipe', (t) => t.field({ type: 'Boolean', args: { recipeId: t.arg.id(), stars: t.arg.int() },",
        '  resolve: async (_root, args) => db.ratings.create({ recipeId: args.recipeId, stars: args.stars }) }));',
      ].join('\n'),
      'src/server.ts': [
        "import { createYoga } from 'graphql-yoga';",
        "import { createServer } from 'node:http';",
        "const yoga = createYoga({ schema, graphqlEndpoint: '/v1/graphql' });",
        'createServer(yoga).listen(4000);',
      ].join('\n'),
      'src/store/cart.ts': [
        '// A Vuex store: its mutations are client state, not GraphQL.',
        'export const mutations = { ADD_ITEM(state, item) { state.items.push(item); }, CLEAR(state) { state.items = []; } };',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual([
      'POST /v1/graphql mutation addRecipe [title,servings]',
      'POST /v1/graphql mutation rateRecipe [recipeId,stars]',
      'POST /v1/graphql mutation removeRecipe [id]',
    ]);
  });

  it('Apollo 3 applyMiddleware({ path }) on an app mounted under a prefix; the express-graphql transport route is no endpoint', async () => {
    const dir = project({
      'package.json': '{ "dependencies": { "express": "^4", "apollo-server-express": "^3", "express-graphql": "^0.12" } }',
      'src/app.ts': [
        "import express from 'express';",
        "import { ApolloServer } from 'apollo-server-express';",
        "import { graphqlHTTP } from 'express-graphql';",
        "import { resolvers } from './resolvers';",
        'export const app = express();',
        'const server = new ApolloServer({ typeDefs, resolvers });',
        "server.applyMiddleware({ app, path: '/gql' });",
        "app.post('/legacy-graphql', express.json(), graphqlHTTP({ schema }));",
      ].join('\n'),
      'src/resolvers.ts': [
        'export const resolvers = {',
        '  Query: { orders: () => [] },',
        '  Mutation: {',
        '    checkout: async (parent, { cartId, couponCode }, { dataSources }) => dataSources.orders.checkout(cartId, couponCode),',
        '  },',
        '};',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual(['POST /gql mutation checkout [cartId,couponCode]']);
  });

  it('NestJS useGlobalPrefix puts the GraphQL path under setGlobalPrefix; without a server config the default /graphql is shown and said', async () => {
    const withPrefix = project({
      'package.json': '{ "dependencies": { "@nestjs/core": "^10", "@nestjs/graphql": "^12" } }',
      'src/main.ts': "const app = await NestFactory.create(AppModule);\napp.setGlobalPrefix('api');",
      'src/app.module.ts': "import { GraphQLModule } from '@nestjs/graphql';\n@Module({ imports: [GraphQLModule.forRoot({ autoSchemaFile: true, useGlobalPrefix: true })] })\nexport class AppModule {}",
      'src/pay.resolver.ts': "import { Args, Mutation, Resolver } from '@nestjs/graphql';\n@Resolver()\nexport class PayResolver {\n  @Mutation(() => Boolean) pay(@Args('amount') amount: number) { return charge(amount); }\n}",
    });
    expect(ops((await inspectCodebase(withPrefix)).endpoints)).toEqual(['POST /api/graphql mutation pay [amount]']);

    const bare = project({ 'src/resolvers.js': "module.exports = { Mutation: { vote: (_, { pollId }) => polls.vote(pollId), 'un-vote': (_, { pollId }) => polls.unvote(pollId) } };" });
    const inspection = await inspectCodebase(bare);
    expect(ops(inspection.endpoints)).toEqual(['POST /graphql mutation vote [pollId]']);
    expect(inspection.notes.join('\n')).toMatch(/GraphQL endpoint: no server configuration .* default \/graphql/);
    // Not a name GraphQL accepts: noted and left out, never a run that aborts on it later.
    expect(inspection.notes.join('\n')).toMatch(/mutation un-vote is not a valid GraphQL field name/);
  });

  it('startStandaloneServer answers on /, Mercurius on its path; a Next.js route serving Apollo is the transport, not an endpoint', async () => {
    const standalone = project({
      'src/index.ts': "import { ApolloServer } from '@apollo/server';\nimport { startStandaloneServer } from '@apollo/server/standalone';\nconst resolvers = { Mutation: { like: (_p, { postId }) => likes.add(postId) } };\nawait startStandaloneServer(new ApolloServer({ typeDefs, resolvers }));",
    });
    expect(ops((await inspectCodebase(standalone)).endpoints)).toEqual(['POST / mutation like [postId]']);

    const mercurius = project({
      'src/app.ts': "import Fastify from 'fastify';\nimport mercurius from 'mercurius';\nconst app = Fastify();\nconst resolvers = { Mutation: { add: async (_, { x, y }) => x + y } };\napp.register(mercurius, { schema, resolvers, path: '/graph' });",
    });
    expect(ops((await inspectCodebase(mercurius)).endpoints)).toEqual(['POST /graph mutation add [x,y]']);

    const next = project({
      'app/api/graphql/route.ts': "import { ApolloServer } from '@apollo/server';\nimport { startServerAndCreateNextHandler } from '@as-integrations/next';\nconst handler = startServerAndCreateNextHandler(new ApolloServer({ typeDefs, resolvers }));\nexport const POST = handler;\nexport const GET = handler;",
      'lib/resolvers.ts': "import type { Resolvers } from './generated';\nexport const Mutation: Resolvers['Mutation'] = { subscribe: async (_parent, args) => list.add(args.email) };",
    });
    expect(ops((await inspectCodebase(next)).endpoints)).toEqual(['POST /api/graphql mutation subscribe [email]']);
  });
});

describe('GraphQL mutations (Python)', () => {
  it('ariadne MutationType fields, a Flask view executing GraphQL is the server path; graphene classes no Mutation type registers are left out', async () => {
    const dir = project({
      'requirements.txt': 'flask==3.0\nariadne==0.23\ngraphene==3.3\n',
      'app.py': [
        'from ariadne import MutationType, graphql_sync',
        'from flask import Flask, request',
        'app = Flask(__name__)',
        'mutation = MutationType()',
        '',
        '@mutation.field("createTodo")',
        'def resolve_create_todo(obj, info, input):',
        '    return Todo.create(title=input["title"], due=input.get("due"))',
        '',
        '@app.route("/api/graphql", methods=["POST"])',
        'def graphql_server():',
        '    success, result = graphql_sync(schema, request.get_json(), context_value=request)',
        '    return result',
      ].join('\n'),
      'legacy.py': [
        'import graphene',
        'class Unused(graphene.Mutation):',
        '    class Arguments:',
        '        name = graphene.String()',
        '    def mutate(self, info, name):',
        '        return Unused()',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual(['POST /api/graphql mutation createTodo [title,due]']);
    expect(inspection.notes.join('\n')).toMatch(/legacy\.py:2: graphene mutation Unused is not a field of any Mutation type/);
  });
});

describe('GraphQL mutations (Python): more conventions', () => {
  it('a Mutation field exposing a library class is still an entry point; @strawberry.field on the Mutation root type is a mutation', async () => {
    const graphene = project({
      'requirements.txt': 'graphene-django==3.2\ndjango-graphql-jwt==0.4\n',
      'api/schema.py': [
        'import graphene',
        'import graphql_jwt',
        'from graphene_django import DjangoObjectType',
        'class Mutation(graphene.ObjectType):',
        '    token_auth = graphql_jwt.ObtainJSONWebToken.Field()',
      ].join('\n'),
      'api/urls.py': 'from graphene_django.views import GraphQLView\nurlpatterns = [path("graphql", GraphQLView.as_view())]',
    });
    expect(ops((await inspectCodebase(graphene)).endpoints)).toEqual(['POST /graphql mutation tokenAuth []']);

    const strawberry = project({
      'chat/schema.py': [
        'import strawberry',
        '@strawberry.type',
        'class Query:',
        '    @strawberry.field',
        '    def hello(self) -> str:',
        '        return "world"',
        '',
        '@strawberry.type',
        'class Mutation:',
        '    @strawberry.field',
        '    async def send_message(self, info, message: str) -> bool:',
        '        await info.context.broadcast.publish(channel="chat", message=message)',
        '        return True',
      ].join('\n'),
      'chat/app.py': 'from strawberry.asgi import GraphQL\nfrom starlette.applications import Starlette\napp = Starlette()\napp.add_route("/gql", GraphQL(schema))',
    });
    expect(ops((await inspectCodebase(strawberry)).endpoints)).toEqual(['POST /gql mutation sendMessage [message]']);
  });
});

describe('Next.js pages API routes', () => {
  it('includes() method lists and next-connect routers; a reader without a method check is not reported', async () => {
    const dir = project({
      'pages/api/hello.js': 'export default function handler(req, res) { res.status(200).json({ name: "x" }) }',
      // Checks the method and serves only GET: a reader, even though it reads a body.
      'pages/api/products/search.ts': "export default async function search(req, res) {\n  if (req.method.toLocaleLowerCase() !== 'get') return res.status(405).end();\n  res.json(await db.product.findMany({ where: { name: req.body.q } }));\n}",
      'pages/api/carts/[cartId]/items.ts': [
        'export default async function items(req, res) {',
        "  if (!['POST', 'PUT'].includes(req.method)) return res.status(405).end();",
        '  const { sku, quantity } = req.body;',
        '  await db.cartItem.upsert({ where: { sku }, update: { quantity }, create: { sku, quantity } });',
        '  res.json({ ok: true });',
        '}',
      ].join('\n'),
      'pages/api/uploads/index.ts': [
        "import { createRouter } from 'next-connect';",
        'const router = createRouter();',
        'router.get(async (req, res) => res.json(await db.upload.findMany()));',
        'router.post(async (req, res) => { await db.upload.create({ data: { name: req.body.name } }); res.status(201).end(); });',
        'export default router.handler();',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual([
      'POST /api/carts/:cartId/items [sku,quantity]',
      'POST /api/uploads [name]',
      'PUT /api/carts/:cartId/items [sku,quantity]',
    ]);
    expect(inspection.endpoints.every((e) => e.framework === 'nextjs')).toBe(true);
  });
});
