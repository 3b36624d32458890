/**
 * Pages-router handlers that never check `req.method`: the method comes from the app's own calls
 * (a stated method, an HTTP client's verb, a helper whose body sends one method), and the route is
 * a mutating entry point only when its handler mutates — reading `req.body` to look something up
 * is not enough. On small generated projects.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { routeMatches } from '../src/inspect/any-method-routes.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { apiPath, clientCallFacts } from '../src/inspect/ts/ts-client-calls.js';
import { parseSource } from '../src/inspect/ts/ts-source.js';


const project = tempProjects('any-method');

describe('calls to the app’s own API', () => {
  it('reads the path from literals, templates and concatenation, and the method from the call, its options or a helper', () => {
    const src = parseSource('src/client.ts', [
      "export async function sendPatch(url: string, body: unknown) { return fetch(url, { method: 'PATCH', body: JSON.stringify(body) }); }",
      'export const load = (url: string) => fetch(url);',
      "await fetch(`${base}/api/orders/${id}?draft=1`, { method: 'PUT' });",
      "await axios.delete('/api/cart/' + cartId);",
      "await axios({ url: '/api/refunds', method: 'post' });",
      "await sendPatch(`/api/orders/${id}/note`, { note });",
      // A body that carries its own `method` field states no HTTP method.
      "await submit('/api/payments', { method: 'card' });",
      // A server's route, not a call.
      "app.post('/api/hooks', (req, res) => res.end());",
    ].join('\n'));
    const { calls, helpers } = clientCallFacts(src);
    expect(calls.map((c) => `${c.method ?? '?'} ${c.path} ${c.callee}`)).toEqual([
      'PUT /api/orders/:p fetch',
      'DELETE /api/cart/:p axios.delete',
      'POST /api/refunds axios',
      '? /api/orders/:p/note sendPatch',
      '? /api/payments submit',
    ]);
    expect(helpers.map((h) => `${h.name} ${h.method}`)).toEqual(['sendPatch PATCH', 'load GET']);
    expect(apiPath('https://shop.test/api/orders')).toBe('/api/orders');
    expect(apiPath('/apis/orders')).toBeUndefined();
  });

  it('matches a call path to a route: parameters take one segment, a catch-all the rest, literals only themselves', () => {
    expect(routeMatches('/api/orders/:id', '/api/orders/:p')).toBe(true);
    expect(routeMatches('/api/orders/:id', '/api/orders/42')).toBe(true);
    expect(routeMatches('/api/orders/:id', '/api/orders')).toBe(false);
    expect(routeMatches('/api/orders/export', '/api/orders/:p')).toBe(false);
    expect(routeMatches('/api/files/*path', '/api/files/a/b')).toBe(true);
  });
});

describe('pages-router handlers without a method check', () => {
  it('are reported with the method their callers send, and only when they mutate', async () => {
    const dir = project({
      'package.json': '{ "dependencies": { "next": "14.2.3", "stripe": "^16.0.0", "@prisma/client": "^5.0.0" } }',
      'lib/http.ts': "export async function putJSON(url: string, data: unknown) { return fetch(url, { method: 'PUT', body: JSON.stringify(data) }); }",
      'components/Edit.tsx': "import { putJSON } from '../lib/http';\nexport const save = (id: string, title: string) => putJSON(`${process.env.NEXT_PUBLIC_URL}/api/books/${id}`, { title });",
      'components/Like.tsx': "export const like = (id: string) => fetch(`/api/books/${id}/like`, { method: 'PATCH' });\nexport const peek = (id: string) => fetch(`/api/books/${id}/like`);",
      // Reads the body, only retrieves: not a mutating entry point.
      'pages/api/intents/retrieve.ts': [
        "import { stripe } from '../../../lib/stripe';",
        'export default async function handler(req, res) {',
        '  const { id } = req.body;',
        '  res.json(await stripe.paymentIntents.retrieve(id));',
        '}',
      ].join('\n'),
      'pages/api/books/[id].ts': 'export default async function handler(req, res) {\n  const { title } = req.body;\n  res.json(await prisma.book.update({ where: { id: req.query.id }, data: { title } }));\n}',
      'pages/api/books/[id]/like.ts': 'export default async function handler(req, res) {\n  res.json(await prisma.like.create({ data: { bookId: req.query.id } }));\n}',
      // No caller in the code: POST, stated as assumed.
      'pages/api/payment-methods/attach.ts': [
        "import Stripe from 'stripe';",
        'const stripe = new Stripe(process.env.KEY);',
        'export default async function attach(req, res) {',
        '  res.json(await stripe.paymentMethods.attach(req.body.paymentMethodId, { customer: req.body.customerId }));',
        '}',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route} ${e.cost?.level}`).sort()).toEqual([
      'PATCH /api/books/:id/like write',
      'POST /api/payment-methods/attach external',
      'PUT /api/books/:id write',
    ]);
    const notes = inspection.notes.join('\n');
    expect(notes).toContain('pages/api/books/[id].ts:1: the handler never checks req.method; PUT is how this codebase calls /api/books/:id: components/Edit.tsx:2 (putJSON → PUT).');
    expect(notes).toMatch(/attach\.ts:3: the handler never checks req\.method, so every method runs it; shown as POST \(assumed/);
    expect(notes).toMatch(/intents\/retrieve\.ts:2: \/api\/intents\/retrieve is not reported as a mutating entry point: its handler never checks req\.method and only reads/);
    expect(inspection.endpoints.some((e) => 'anyMethod' in e)).toBe(false);
  });
});
