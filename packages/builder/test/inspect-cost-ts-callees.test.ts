/**
 * Duplicate cost of TypeScript/JavaScript handlers that delegate, one call deep: a NestJS controller's
 * injected service (`this.articleService.favorite(…)`), a same-file helper with a multi-line arrow
 * signature, a helper imported through tsconfig `paths`; and write-named calls that store nothing
 * (pure helpers, `crypto.createHash(`, Twilio SMS, a local `Set`), plus the auth and read route rules.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCosts } from '../src/inspect/cost.js';
import { modulePathsOf } from '../src/inspect/module-paths.js';
import type { EndpointFinding, MutatingMethod, PaymentCallFinding } from '../src/inspect/types.js';

const root = mkdtempSync(join(tmpdir(), 'inspect-cost-ts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, lines: string[]) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), lines.join('\n'));
};
const endpoint = (file: string, start: number, end: number, route = '/x', method: MutatingMethod = 'POST', handler?: string): EndpointFinding => ({
  method, route, framework: 'express', location: `${file}:${start}`, ...(handler ? { handler } : {}), bodyFields: [], webhook: false, span: { start, end },
});

write('src/article/article.service.ts', [
  "import { Injectable } from '@nestjs/common';", // 1
  '@Injectable()', // 2
  'export class ArticleService {', // 3
  '  constructor(private readonly articleRepository: Repository<ArticleEntity>) {}', // 4
  '  async favorite(id: number, slug: string) {', // 5
  '    const article = await this.articleRepository.findOne({ slug });', // 6
  '    await this.articleRepository.save(article);', // 7
  '    return { article };', // 8
  '  }', // 9
  '}', // 10
]);
write('src/article/article.controller.ts', [
  "import { Controller, Post, Param } from '@nestjs/common';", // 1
  "import { ArticleService } from './article.service';", // 2
  '@Controller()', // 3
  'export class ArticleController {', // 4
  '  constructor(private readonly articleService: ArticleService) {}', // 5
  "  @Post(':slug/favorite')", // 6
  "  async favorite(@Param('slug') slug) {", // 7
  '    return await this.articleService.favorite(1, slug);', // 8
  '  }', // 9
  '}', // 10
]);
write('app/api/promo.ts', [
  "import Stripe from 'stripe';", // 1
  'const stripe = new Stripe(process.env.KEY!);', // 2
  'const createCheckoutSession = async (', // 3
  '  userId: string,', // 4
  '  email: string', // 5
  ') => {', // 6
  '  const session = await stripe.checkout.sessions.create({ customer_email: email });', // 7
  '  return { sessionId: session.id };', // 8
  '};', // 9
  "app.post('/', async (ctx) => {", // 10
  '  const { userId, email } = await ctx.req.json();', // 11
  '  const out = await createCheckoutSession(userId, email);', // 12
  '  return ctx.json(out);', // 13
  '});', // 14
]);
write('tsconfig.json', ['{ "compilerOptions": { "paths": { "@/*": ["./*"] } } }']);
write('lib/billing.ts', [
  "import { stripe } from './stripe-client';", // 1
  'export async function startSubscription(userId: string) {', // 2
  '  return stripe.subscriptions.create({ customer: userId });', // 3
  '}', // 4
  'export function buildSummary(rows: number[]) {', // 5
  '  return { total: rows.length };', // 6
  '}', // 7
]);
write('app/api/subscribe.ts', [
  "import { startSubscription, buildSummary } from '@/lib/billing';", // 1
  "app.post('/subscribe', async (req, res) => {", // 2
  '  const sub = await startSubscription(req.body.userId);', // 3
  '  res.json(sub);', // 4
  '});', // 5
]);
write('controllers/ai.js', [
  "const crypto = require('node:crypto');", // 1
  'const createImageDataUrl = (file) => {', // 2
  "  return `data:${file.mimetype};base64,${file.buffer.toString('base64')}`;", // 3
  '};', // 4
  'exports.postCamera = async (req, res) => {', // 5
  '  const dataUrl = createImageDataUrl(req.file);', // 6
  "  const hash = crypto.createHash('sha256').update(req.file.buffer).digest('hex');", // 7
  '  const seen = new Set();', // 8
  '  seen.add(hash);', // 9
  '  res.json({ dataUrl, hash });', // 10
  '};', // 11
  'exports.postStore = async (req, res) => {', // 12
  '  await db.collection.add(req.body);', // 13
  '};', // 14
]);
write('controllers/api.js', [
  "const twilioClient = require('twilio')(process.env.SID, process.env.TOKEN);", // 1
  'exports.postTwilio = async (req, res) => {', // 2
  '  const sent = await twilioClient.messages.create({ to: req.body.to, body: req.body.text });', // 3
  '  res.json(sent);', // 4
  '};', // 5
]);
write('routes/tokens.ts', [
  "router.put('/api/account/token/:tokenID', async (req, res) => {", // 1
  '  await prisma.apiToken.update({ where: { id: req.params.tokenID }, data: req.body });', // 2
  '});', // 3
  "router.post('/api/estimate/:estimate/status', async (req, res) => {", // 4
  '  await prisma.estimate.update({ where: { id: req.params.estimate }, data: { status: req.body.status } });', // 5
  '});', // 6
  "router.post('/api/shipping/quote', async (req, res) => {", // 7
  '  res.json({ price: rate(req.body) });', // 8
  '});', // 9
  "router.post('/api/quotes/preview', async (req, res) => {", // 10
  '  await prisma.quote.create({ data: req.body });', // 11
  '});', // 12
]);

const read = (rel: string): string | undefined => {
  try {
    return readFileSync(join(root, rel), 'utf8');
  } catch {
    return undefined;
  }
};
const files = new Set(['lib/billing.ts', 'lib/stripe-client.ts', 'app/api/subscribe.ts', 'app/api/promo.ts']);
const modulePaths = modulePathsOf([{ relPath: 'tsconfig.json', text: read('tsconfig.json') ?? '' }], files, read);
const payment = (location: string, call: string): PaymentCallFinding => ({ provider: 'stripe', call, location, passesIdempotencyKey: false });
const paymentCalls = [payment('app/api/promo.ts:7', 'stripe.checkout.sessions.create'), payment('lib/billing.ts:3', 'stripe.subscriptions.create')];

describe('TS/JS handlers that delegate one call deep', () => {
  it("follows a NestJS controller's injected service into its class method and cites the service's own write", () => {
    const e = endpoint('src/article/article.controller.ts', 7, 9, '/api/articles/:slug/favorite', 'POST', 'favorite');
    const cost = assessCosts([e], { root, paymentCalls: [] }).get(e);
    expect(cost?.level).toBe('write');
    expect(cost?.evidence.join(' ')).toContain('this.articleService.favorite()');
    expect(cost?.evidence.join(' ')).toContain('(src/article/article.service.ts:7)');
  });

  it('reaches a payment in a same-file helper declared with a multi-line arrow signature', () => {
    const e = endpoint('app/api/promo.ts', 10, 14, '/api/apply-promo-code');
    const cost = assessCosts([e], { root, paymentCalls }).get(e);
    expect(cost?.level).toBe('money');
    expect(cost?.evidence.join(' ')).toContain('stripe.checkout.sessions.create (app/api/promo.ts:7) through createCheckoutSession()');
  });

  it('reaches a payment in a helper imported through tsconfig paths when the project mappings are passed in', () => {
    const e = endpoint('app/api/subscribe.ts', 2, 5, '/subscribe');
    // The helper's name is matched by moneyFunctions too; the import is what proves it is this one.
    const cost = assessCosts([e], { root, paymentCalls: [paymentCalls[1] as PaymentCallFinding], modulePaths }).get(e);
    expect(cost?.level).toBe('money');
    expect(cost?.evidence.join(' ')).toContain('(lib/billing.ts:3)');
  });
});

describe('write-named calls that store nothing (JS)', () => {
  it('clears a pure same-file helper, a node:crypto chain and a local Set', () => {
    const e = endpoint('controllers/ai.js', 5, 11, '/ai/llm-camera', 'POST', 'postCamera');
    const cost = assessCosts([e], { root, paymentCalls: [] }).get(e);
    expect(cost?.level).toBe('none');
  });

  it('keeps `.add(` on a database receiver a write', () => {
    const e = endpoint('controllers/ai.js', 12, 14, '/store', 'POST', 'postStore');
    expect(assessCosts([e], { root, paymentCalls: [] }).get(e)?.level).toBe('write');
  });

  it("rates Twilio's messages.create an SMS sent, not a write", () => {
    const e = endpoint('controllers/api.js', 2, 5, '/api/twilio', 'POST', 'postTwilio');
    const cost = assessCosts([e], { root, paymentCalls: [] }).get(e);
    expect(cost?.level).toBe('external');
    expect(cost?.evidence.join(' ')).toContain('twilioClient.messages.create(');
  });
});

describe('auth and read route words', () => {
  it('rates editing a stored token by id as a write, minting one as auth', () => {
    const edit = endpoint('routes/tokens.ts', 1, 3, '/api/account/token/:tokenID', 'PUT');
    const mint = endpoint('routes/tokens.ts', 1, 3, '/api/account/token', 'POST');
    const costs = assessCosts([edit, mint], { root, paymentCalls: [] });
    expect(costs.get(edit)?.level).toBe('write');
    expect(costs.get(mint)?.level).toBe('auth');
  });

  it('reads only the last segment as a read word, and a write in the handler wins over it', () => {
    const status = endpoint('routes/tokens.ts', 4, 6, '/api/estimate/:estimate/status');
    const quote = endpoint('routes/tokens.ts', 7, 9, '/api/shipping/quote');
    const preview = endpoint('routes/tokens.ts', 10, 12, '/api/quotes/preview');
    const costs = assessCosts([status, quote, preview], { root, paymentCalls: [] });
    expect(costs.get(status)?.level).toBe('write');
    expect(costs.get(quote)?.level).toBe('read');
    expect(costs.get(preview)?.level).toBe('write');
  });
});
