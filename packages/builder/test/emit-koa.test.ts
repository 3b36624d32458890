/**
 * Koa in the generated TypeScript: koa.ts on the runtime's Koa entry with one middleware per
 * action, the keys scoped by the principal the handlers read on ctx.state (or an assumption said
 * as one), each route's own registration with its middleware in place; webhooks.ts with a Koa
 * mount. What the document says of koa.ts is true of it (the check agrees), and the code runs: a
 * real Koa app with @koa/router and @koa/bodyparser, wired exactly as koa.ts says, replays a
 * retry, refuses a changed body, scopes keys per user, and runs a redelivered Stripe event once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocument } from '../src/check/index.js';
import { checkAgainstArtifacts } from '../src/check/artifact-claims.js';
import { buildDesign } from '../src/design/build-design.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { collectAnswers } from '../src/questions/collect-answers.js';
import { renderHtml } from '../src/render/html.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { GENERATED_AT } from './fixtures.js';
import { runGeneratedVitest } from './support/generated-vitest.js';
import { tempProjects } from './support/temp-project.js';
import { compileTypeScript } from './support/typescript-compiler.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const APP = [
  "import Koa from 'koa';",
  "import Router from '@koa/router';",
  "import { bodyParser } from '@koa/bodyparser';",
  "import { createTransfer } from './transfers.js';",
  "import { stripeEvents } from './stripe-events.js';",
  "const router = new Router({ prefix: '/api' });",
  "router.post('transfers.create', '/transfers', bodyParser(), createTransfer);",
  "router.post('/webhooks/stripe', bodyParser(), stripeEvents);",
  'const app = new Koa();',
  'app.use(router.routes());',
  '',
].join('\n');

const project = tempProjects('emit-koa', {
  'package.json': '{ "name": "ledger", "type": "module", "dependencies": { "koa": "^3.0.0", "@koa/router": "^15.0.0", "@koa/bodyparser": "^6.0.0", "stripe": "^17.0.0" } }',
  'tsconfig.json': '{ "compilerOptions": { "module": "nodenext", "target": "es2022", "strict": true } }',
  'src/app.ts': APP,
  'src/stripe-events.ts': "import Stripe from 'stripe';\nconst stripe = new Stripe(process.env.STRIPE_KEY ?? '');\nexport async function stripeEvents(ctx: any) {\n  const event = stripe.webhooks.constructEvent(ctx.request.rawBody, ctx.get('stripe-signature'), process.env.STRIPE_WEBHOOK_SECRET ?? '');\n  ctx.body = { received: event.id };\n}\n",
});

const TRANSFERS_BY_EMAIL = "import type { Context } from 'koa';\nexport async function createTransfer(ctx: Context) {\n  const { amount, currency } = ctx.request.body as { amount: number; currency: string };\n  const { user } = ctx.state;\n  ctx.status = 201;\n  ctx.body = { amount, currency, owner: user.email };\n}\n";
const TRANSFERS_NO_PRINCIPAL = "import type { Context } from 'koa';\nexport async function createTransfer(ctx: Context) {\n  const { amount, currency } = ctx.request.body as { amount: number; currency: string };\n  ctx.status = 201;\n  ctx.body = { amount, currency };\n}\n";

async function generated(transfers: string, files: Readonly<Record<string, string>> = {}) {
  const dir = project({ 'src/transfers.ts': transfers, ...files });
  const { answers } = await collectAnswers({ inspect: () => inspectCodebase(dir) });
  const model = buildDesign(answers, { generatedAt: GENERATED_AT });
  const file = (path: string) => model.artifacts.find((a) => a.path === path)?.content ?? '';
  return { answers, model, file, markdown: renderMarkdown(model) };
}

const REGISTRATION = "router.post('transfers.create', '/transfers', bodyParser(), idempotent.createTransfer, createTransfer)";

describe('koa.ts', () => {
  it('uses the runtime’s Koa entry, scopes keys by the principal the handler reads, and shows each route’s registration', async () => {
    const { answers, file } = await generated(TRANSFERS_BY_EMAIL);
    expect(answers.stack.framework).toBe('koa');
    expect(answers.principal).toBe('ctx.state.user.email');
    expect(answers.provenance.principal).toEqual({ source: 'code', detail: 'src/transfers.ts:6' });
    const koa = file('koa.ts');
    expect(koa).toContain("import { idempotencyMiddleware, type KoaIdempotencyOptions } from '@idempotency-builder/runtime/koa';");
    expect(koa).toContain('// The principal the keys are scoped by: ctx.state.user.email, as the code reads it (src/transfers.ts:6).');
    expect(koa).toContain('const value = (state as { user?: { email?: unknown } } | undefined)?.user?.email;');
    expect(koa).toContain('    scope: (ctx) => principalOf(ctx.state),');
    expect(koa).toContain('//   createTransfer — POST /api/transfers — src/app.ts:7');
    expect(koa).toContain(`//     ${REGISTRATION}`);
    expect(koa).toContain('  createTransfer: idempotencyMiddleware(options("createTransfer")),');
  });

  it('states its assumption when no handler reads a principal', async () => {
    const { answers, file, markdown } = await generated(TRANSFERS_NO_PRINCIPAL);
    expect(answers.principal).toBeUndefined();
    expect(answers.provenance.principal?.source).toBe('assumption');
    expect(file('koa.ts')).toContain('// The principal the keys are scoped by: ASSUMED: your auth middleware (koa-jwt, koa-passport) sets ctx.state.user.id;');
    expect(file('koa.ts')).toContain('?.user?.id;');
    expect(markdown).toContain('In `koa.ts`, keys are scoped by `ctx.state.user.id` — ASSUMED');
    expect(markdown).toMatch(/principal: ctx\.state\.user\.id, where koa-jwt and koa-passport put the authenticated user/);
  });

  it('mounts webhooks on Koa with the raw body the signature covers', async () => {
    const { file } = await generated(TRANSFERS_BY_EMAIL);
    const webhooks = file('webhooks.ts');
    expect(webhooks).toContain('export function mountWebhook(webhook: WebhookHandler): (ctx: KoaWebhookContext) => Promise<void>');
    expect(webhooks).toContain('normalizeHeaders');
    expect(webhooks).not.toContain('fetchWebhook');
  });
});

describe('the document on Koa', () => {
  it('says where the scope is read and how the first route is wired, and the check agrees with koa.ts', async () => {
    // Without the webhook, the transfer is the first action the document tells to protect.
    const { model, markdown } = await generated(TRANSFERS_BY_EMAIL, { 'src/app.ts': APP.replace(/^router\.post\('\/webhooks.*\n/m, '') });
    expect(markdown).toContain('In `koa.ts`, keys are scoped by `ctx.state.user.email`, as the handlers read it (src/transfers.ts:6).');
    expect(markdown).toContain(`add \`idempotent.createTransfer\` from \`koa.ts\` to its registration, right before the handler — \`${REGISTRATION}\``);
    expect(markdown).toContain('Koa: idempotency middleware ahead of the auth that fills ctx.state');
    const html = await renderHtml(model);
    expect(checkDocument(markdown, 'md')).toEqual([]);
    const workspace = makeWorkspace('koa-check');
    try {
      writeArtifacts(workspace.dir, model.artifacts);
      expect(checkAgainstArtifacts(markdown, 'md', workspace.dir)).toEqual([]);
      expect(checkAgainstArtifacts(html, 'html', workspace.dir)).toEqual([]);
      // A koa.ts that reads another principal, or lists another registration, contradicts the document.
      const koa = join(workspace.dir, 'koa.ts');
      const original = model.artifacts.find((a) => a.path === 'koa.ts')?.content ?? '';
      writeFileSync(koa, original.replace('?.user?.email;', '?.user?.id;').replace(REGISTRATION, REGISTRATION.replace('bodyParser(), ', '')));
      // Both formats: the embedded copy no longer matches (artifact-differs), and each Koa claim is contradicted.
      expect(checkAgainstArtifacts(markdown, 'md', workspace.dir).map((v) => v.check)).toEqual(['artifact-differs', 'koa', 'koa']);
      expect(checkAgainstArtifacts(html, 'html', workspace.dir).map((v) => v.check)).toEqual(['artifact-differs', 'koa', 'koa']);
    } finally {
      workspace.remove();
    }
  });
});

/** A Koa app wired exactly as koa.ts says, on the generated code and the runtime's sources. */
const USAGE = `import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { idempotent } from './koa.js';
import { mountWebhook, processStripeWebhook } from './webhooks.js';

const stripe = new Stripe('sk_test_koa');
const secret = 'whsec_koa_test';
let runs = 0;
let events = 0;
const createTransfer = async (ctx: Koa.Context) => {
  runs += 1;
  const held = ctx.state.idempotency as { lockVersion?: unknown } | undefined;
  ctx.status = 201;
  ctx.body = { run: runs, amount: (ctx.request.body as { amount: number }).amount, held: typeof held?.lockVersion };
};
const router = new Router({ prefix: '/api' });
${REGISTRATION};
router.post('/webhooks/stripe', bodyParser(), mountWebhook(processStripeWebhook({ stripe, secret }, async () => { events += 1; })));
const app = new Koa();
app.use(async (ctx, next) => {
  const email = ctx.get('x-user');
  if (email) ctx.state.user = { email };
  await next();
});
app.use(router.routes());
const server = app.listen(0);
const base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const transfer = (key: string, user: string | undefined, amount: number) => fetch(\`\${base}/api/transfers\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'idempotency-key': key, ...(user ? { 'x-user': user } : {}) },
  body: JSON.stringify({ amount, currency: 'EUR' }),
});

describe('koa.ts on a Koa app', () => {
  it('runs once per key and user, replays a retry, refuses another body and a request without a principal', async () => {
    const first = await transfer('k-1', 'ana@example.com', 100);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ run: 1, amount: 100, held: 'number' });
    const retry = await transfer('k-1', 'ana@example.com', 100);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual({ run: 1, amount: 100, held: 'number' });
    expect((await transfer('k-1', 'ana@example.com', 999)).status).toBe(409);
    expect((await transfer('k-1', 'ben@example.com', 100)).status).toBe(201);
    expect((await transfer('k-2', undefined, 100)).status).toBe(401);
    expect(runs).toBe(2);
  });

  it('verifies a Stripe event on the raw body the body parser kept, and runs a redelivery once', async () => {
    const payload = JSON.stringify({ id: 'evt_koa_1', object: 'event', type: 'payment_intent.succeeded', created: 1, data: { object: { id: 'pi_1' } } });
    const deliver = () => fetch(\`\${base}/api/webhooks/stripe\`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
      body: payload,
    });
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    expect(events).toBe(1);
    const forged = await fetch(\`\${base}/api/webhooks/stripe\`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, body: payload });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
  });
});
`;

describe('the generated Koa code runs', () => {
  const workspace = makeWorkspace('koa-run');
  afterAll(() => workspace.remove());

  it('type-checks with koa, @koa/router and @koa/bodyparser, and serves as koa.ts says', async () => {
    const { model, file } = await generated(TRANSFERS_BY_EMAIL);
    expect(file('koa.ts')).toContain(REGISTRATION);
    writeArtifacts(workspace.dir, model.artifacts.filter((a) => a.language === 'typescript'));
    writeFileSync(join(workspace.dir, 'koa-usage.test.ts'), USAGE);
    const compiled = await compileTypeScript(workspace.dir);
    expect(compiled.output).toBe('');
    const stdout = await runGeneratedVitest(workspace.dir, 'koa-usage.test.ts', { IDEMPOTENCY_DB: join(workspace.dir, 'idempotency.db') });
    expect(stdout).toMatch(/Tests\s+2 passed/);
  }, 180_000);
});
