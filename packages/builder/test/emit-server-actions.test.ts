/**
 * Next.js server actions in the design and the generated code: no route middleware (an action has
 * no route of its own); server-actions.ts wraps each action with the runtime's makeIdempotent,
 * compiles against the runtime's sources and, run on the generated SQLite store, lets exactly one
 * of concurrent duplicates run, replays a retry, refuses the same key with other fields, a call
 * without a key and an anonymous call, and replays a redirect() without running the action again.
 * The document tells the page to send one key per form render.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { checkAgainstArtifacts } from '../src/check/artifact-claims.js';
import { buildDesign } from '../src/design/build-design.js';
import { renderMarkdown } from '../src/render/markdown.js';
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
      name: 'checkout', kind: 'http', description: 'server action checkout on POST /*', method: 'POST', route: '/*',
      serverAction: 'checkout', significantFields: ['priceId', 'quantity'], provider: 'stripe', location: 'app/actions.ts:9',
    },
    ...base.actions.filter((a) => a.name === 'createPayment'),
  ],
});
const model = buildDesign(answers, { generatedAt: GENERATED_AT });
const file = (path: string) => model.artifacts.find((a) => a.path === path)?.content;

/** How a user wraps an action in its 'use server' module; also the behaviour check, run with vitest on the generated SQLite store. */
const USAGE = `import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The generated engine's own SQLite store, in a file of this run.
process.env.IDEMPOTENCY_DB = join(mkdtempSync(join(tmpdir(), 'server-actions-')), 'idempotency.db');
const { describe, expect, it } = await import('vitest');
const { idempotentServerAction } = await import('./server-actions.js');

let charges = 0;
let redirects = 0;
const user: { id?: string } = { id: 'usr-1' };

async function checkoutUnprotected(formData: FormData): Promise<{ sessionId: string; priceId: string }> {
  charges += 1;
  // Slow enough that every duplicate arrives while the first still runs.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { sessionId: \`cs_\${charges}\`, priceId: String(formData.get('priceId')) };
}
const checkout = idempotentServerAction('checkout', checkoutUnprotected, { principal: async () => user.id });

/** Next's redirect(): it throws an error whose digest names the destination. */
async function checkoutAndRedirect(_formData: FormData): Promise<never> {
  redirects += 1;
  throw Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;replace;/thanks;307;' });
}
const redirecting = idempotentServerAction('checkout', checkoutAndRedirect, { principal: () => user.id });

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe('server-actions.ts on the runtime', () => {
  it('runs one of concurrent duplicates, replays a retry, refuses another payload, no key and no user', async () => {
    const fields = { idempotencyKey: 'f7c1d8e2-0d4a-4b8e-9a51-1c2d3e4f5a6b', priceId: 'price_1', quantity: '1' };
    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => checkout(form(fields))));
    expect(charges).toBe(1);
    const done = settled.filter((s) => s.status === 'fulfilled');
    expect(done).toHaveLength(1);
    for (const s of settled) if (s.status === 'rejected') expect(s.reason).toMatchObject({ code: 'in_progress' });
    // The user retries the same form (same key): the stored result, no second charge; a field
    // outside the significant ones (Next's own $ACTION_ fields, a note) does not make another intent.
    const replay = await checkout(form({ ...fields, note: 'again', $ACTION_ID_abc: '' }));
    expect(replay).toEqual((done[0] as PromiseFulfilledResult<unknown>).value);
    await expect(checkout(form({ ...fields, priceId: 'price_2' }))).rejects.toMatchObject({ code: 'fingerprint_mismatch' });
    await expect(checkout(form({ priceId: 'price_1', quantity: '1' }))).rejects.toMatchObject({ code: 'invalid_key' });
    user.id = undefined;
    await expect(checkout(form({ ...fields, idempotencyKey: 'k-anon' }))).rejects.toMatchObject({ code: 'invalid_scope' });
    user.id = 'usr-1';
    // Another user's form with the same key is another intent.
    user.id = 'usr-2';
    await checkout(form(fields));
    user.id = 'usr-1';
    expect(charges).toBe(2);
  });

  it('stores a redirect() as the answer and throws it again on a replay without running the action', async () => {
    const fields = { idempotencyKey: 'redirect-key-1', priceId: 'price_1', quantity: '1' };
    await expect(redirecting(form(fields))).rejects.toMatchObject({ digest: 'NEXT_REDIRECT;replace;/thanks;307;' });
    await expect(redirecting(form(fields))).rejects.toMatchObject({ digest: 'NEXT_REDIRECT;replace;/thanks;307;' });
    expect(redirects).toBe(1);
  });

  it('observe mode (required: false) runs a keyless call unguarded', async () => {
    let runs = 0;
    const observed = idempotentServerAction('checkout', async (_form: FormData) => ++runs, { principal: () => 'usr-1', required: false });
    await observed(form({ priceId: 'p' }));
    await observed(form({ priceId: 'p' }));
    expect(runs).toBe(2);
  });
});
`;

describe('Next.js server actions in the generated TypeScript', () => {
  const workspace = makeWorkspace('server-actions');
  afterAll(() => workspace.remove());

  it('get a makeIdempotent wrapper, never route middleware; the document explains the client side', () => {
    const actions = file('server-actions.ts') ?? '';
    expect(actions).toContain("import { makeIdempotent } from '@idempotency-builder/runtime/functions';");
    expect(actions).toContain('export type ServerAction = "checkout";');
    expect(file('express.ts')).toContain('createPayment');
    expect(file('express.ts')).not.toContain('checkout');
    const text = JSON.stringify(model);
    // One key per form render, resent on retry; the stored key is makeIdempotent's <action>:<key>.
    expect(text).toContain('once per form render');
    expect(text).toContain('resent unchanged when the user retries');
    expect(text).toContain('checkout:');
    expect(text).not.toMatch(/mount [^.]*on POST \/\*/);
  });

  it('tells to wrap the action and add the hidden field first when it is the highest risk', () => {
    const alone = buildDesign(answersSchema.parse({ ...answers, actions: answers.actions.filter((a) => a.serverAction) }), { generatedAt: GENERATED_AT });
    const text = JSON.stringify(alone);
    expect(text).toMatch(/Protect checkout first.{0,200}export it wrapped with .{0,40}idempotentServerAction.{0,200}add the hidden /);
    expect(text).not.toMatch(/mount [^.]*on POST \/\*/);
  });

  it('check agrees with the generated pair and catches server-actions.ts reading another key field or missing an action', () => {
    const dir = makeWorkspace('server-actions-check');
    try {
      writeArtifacts(dir.dir, model.artifacts);
      const markdown = renderMarkdown(model);
      expect(checkAgainstArtifacts(markdown, 'md', dir.dir)).toEqual([]);
      const path = join(dir.dir, 'server-actions.ts');
      const original = readFileSync(path, 'utf8');
      writeFileSync(path, original.replace('export const KEY_FIELD = "idempotencyKey";', 'export const KEY_FIELD = "formKey";').replace('export type ServerAction = "checkout";', 'export type ServerAction = never;'));
      const messages = checkAgainstArtifacts(markdown, 'md', dir.dir).filter((v) => v.check === 'server-action').map((v) => v.message);
      expect(messages).toEqual([
        'The document says checkout is a wrapped server action, but server-actions.ts does not list it.',
        'The document tells the page to send the key in the form field idempotencyKey, but server-actions.ts reads another.',
      ]);
    } finally {
      dir.remove();
    }
  });

  it('compiles with tsc against the runtime and runs green on the SQLite store', async () => {
    writeArtifacts(workspace.dir, model.artifacts.filter((a) => a.language === 'typescript'));
    writeFileSync(join(workspace.dir, 'server-actions-usage.test.ts'), USAGE);
    const compiled = await compileTypeScript(workspace.dir);
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);
    const stdout = await runGeneratedVitest(workspace.dir, 'server-actions-usage.test.ts');
    expect(stdout).toMatch(/Tests\s+3 passed/);
    // The generated scenario suite, whose subject is the server action here, stays green too.
    expect(await runGeneratedVitest(workspace.dir, 'idempotency.test.ts')).toMatch(/Tests\s+\d+ passed/);
  }, 180_000);
});
