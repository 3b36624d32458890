/**
 * GraphQL mutations in the design and the generated code: no route middleware on the shared
 * endpoint; the resolver wrapper (graphql.ts) compiles against the runtime and, run on it, replays
 * a retried mutation, refuses the same key with other arguments, a call without a key and an
 * anonymous call; the document tells to wrap the resolver, not to mount middleware.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { fixture, GENERATED_AT } from './fixtures.js';
import { runGeneratedVitest } from './support/generated-vitest.js';
import { compileTypeScript } from './support/typescript-compiler.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const base = fixture('express-postgres-stripe');
const answers = answersSchema.parse({
  ...base,
  stack: { ...base.stack, database: 'sqlite' },
  actions: [
    {
      name: 'createOrder', kind: 'http', description: 'mutation createOrder on POST /api/graphql', method: 'POST', route: '/api/graphql',
      operation: 'mutation createOrder', significantFields: ['listingId', 'quantity'], provider: 'stripe', location: 'src/graphql/resolvers/orders.ts:14',
    },
    ...base.actions.filter((a) => a.name === 'createPayment'),
  ],
});
const model = buildDesign(answers, { generatedAt: GENERATED_AT });
const file = (path: string) => model.artifacts.find((a) => a.path === path)?.content;

/** How a user mounts it in an Apollo resolver map; also the behaviour check, run with vitest. */
const USAGE = `import { describe, expect, it } from 'vitest';
import { idempotentMutation } from './graphql.js';

type Args = { idempotencyKey?: string; input: { listingId: string; quantity: number; note?: string } };
type Context = { user?: { id: string } };
let runs = 0;
export const resolvers = {
  Mutation: {
    createOrder: idempotentMutation('createOrder', async (_parent: unknown, args: Args, _context: Context) => {
      runs += 1;
      return { id: \`ord_\${runs}\`, quantity: args.input.quantity };
    }, {
      key: (_parent, args) => args.idempotencyKey,
      scope: (_parent, _args, context) => context.user?.id,
      payload: (_parent, args) => args.input,
    }),
  },
};

describe('graphql.ts on the runtime', () => {
  it('replays a retried mutation, refuses other arguments under the same key, refuses an anonymous call', async () => {
    const user = { user: { id: 'usr-1' } };
    const first = await resolvers.Mutation.createOrder(null, { idempotencyKey: 'k-1', input: { listingId: 'l-1', quantity: 2 } }, user);
    // A field outside the significant ones does not make it another intent.
    const retry = await resolvers.Mutation.createOrder(null, { idempotencyKey: 'k-1', input: { listingId: 'l-1', quantity: 2, note: 'again' } }, user);
    expect(retry).toEqual(first);
    expect(runs).toBe(1);
    await expect(resolvers.Mutation.createOrder(null, { idempotencyKey: 'k-1', input: { listingId: 'l-1', quantity: 3 } }, user)).rejects.toMatchObject({ code: 'fingerprint_mismatch' });
    await expect(resolvers.Mutation.createOrder(null, { idempotencyKey: 'k-2', input: { listingId: 'l-1', quantity: 2 } }, {})).rejects.toMatchObject({ code: 'invalid_scope' });
    await expect(resolvers.Mutation.createOrder(null, { input: { listingId: 'l-1', quantity: 2 } }, user)).rejects.toMatchObject({ code: 'invalid_key' });
    expect(runs).toBe(1);
  });
});
`;

describe('GraphQL mutations in the generated TypeScript', () => {
  const workspace = makeWorkspace('graphql');
  afterAll(() => workspace.remove());

  it('get resolver glue, never route middleware on the shared endpoint; the document names the operation', () => {
    expect(file('graphql.ts')).toContain("export type MutationAction = \"createOrder\";");
    expect(file('graphql.ts')).toContain("from '@idempotency-builder/runtime'");
    // The design's record: key {action}_{intent}, the design's fingerprint for the action.
    expect(file('graphql.ts')).toContain('key: `${action}_${intent}`, scope, fingerprint: fingerprint(action, select.payload(...args))');
    const express = file('express.ts') ?? '';
    expect(express).toContain('createPayment');
    expect(express).not.toContain('createOrder');
    const text = JSON.stringify(model);
    expect(text).toContain('mutation createOrder (POST /api/graphql)');
    expect(text).toContain('idempotencyKey');
    expect(text).toContain('wrap the resolver of mutation createOrder (POST /api/graphql)');
    expect(text).not.toMatch(/mount [^.]*on mutation createOrder/);
  });

  it('compiles with tsc against the runtime and runs green on it', async () => {
    writeArtifacts(workspace.dir, model.artifacts.filter((a) => a.language === 'typescript'));
    writeFileSync(join(workspace.dir, 'graphql-usage.test.ts'), USAGE);
    const compiled = await compileTypeScript(workspace.dir);
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);
    const stdout = await runGeneratedVitest(workspace.dir, 'graphql-usage.test.ts');
    expect(stdout).toMatch(/Tests\s+1 passed/);
  }, 180_000);
});
