/**
 * Next.js app-router route handlers as real apps write them: a `basePath` in next.config.js,
 * private `_folders`, `export { handler as POST }` (NextAuth's shape), handlers wrapped in an auth
 * helper, and Hono served through `handle(app)` (its routes are reported from the Hono app).
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('next-routes', { 'package.json': '{ "name": "n", "dependencies": { "next": "14.2.0", "stripe": "^14.0.0", "hono": "^4.6.0" } }' });

describe('Next.js route handlers', () => {
  it('serves every handler below basePath, skips private folders, and reads exported aliases and wrapped handlers', async () => {
    const dir = project({
      'next.config.js': "/** @type {import('next').NextConfig} */\nconst nextConfig = { basePath: '/shop', reactStrictMode: true };\nmodule.exports = nextConfig;\n",
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./src/*"] } } }',
      'src/app/(store)/api/orders/[id]/route.ts': "export async function DELETE(req: Request, { params }: { params: { id: string } }) {\n  await db.order.delete({ where: { id: params.id } });\n  return Response.json({});\n}\n",
      'src/app/_internal/api/route.ts': 'export async function POST() {\n  return Response.json({});\n}\n',
      'src/app/api/accounts/route.ts': "async function handler(req: Request) {\n  const { email } = await req.json();\n  await db.account.create({ data: { email } });\n  return Response.json({});\n}\nexport { handler as POST, handler as PUT };\n",
      'src/app/api/pay/route.ts': "import { stripe } from '@/lib/stripe';\nimport { withAuth } from '@/lib/auth';\nexport const POST = withAuth(async (req: Request) => {\n  const { amount, currency } = await req.json();\n  const intent = await stripe.paymentIntents.create({ amount, currency });\n  return Response.json(intent);\n});\n",
      'src/lib/stripe.ts': "import Stripe from 'stripe';\nexport const stripe = new Stripe(process.env.STRIPE_KEY!);\n",
    });
    const endpoints = (await inspectCodebase(dir)).endpoints;
    const byRoute = Object.fromEntries(endpoints.map((e) => [`${e.method} ${e.route}`, e]));
    expect(Object.keys(byRoute).sort()).toEqual([
      'DELETE /shop/api/orders/:id', 'POST /shop/api/accounts', 'POST /shop/api/pay', 'PUT /shop/api/accounts',
    ]);
    expect(byRoute['POST /shop/api/pay']).toMatchObject({ bodyFields: ['amount', 'currency'], cost: { level: 'money' } });
    expect(byRoute['PUT /shop/api/accounts']).toMatchObject({ bodyFields: ['email'], span: { start: 1, end: 5 } });
  });

  it("reports a Hono app served through handle(app) once, from the Hono app's own routes", async () => {
    const dir = project({
      'src/app/api/[[...route]]/route.ts': "import { Hono } from 'hono';\nimport { handle } from 'hono/vercel';\nconst app = new Hono().basePath('/api');\napp.post('/notes', async (c) => c.json(await c.req.json()));\nexport const POST = handle(app);\nexport const DELETE = handle(app);\n",
    });
    const endpoints = (await inspectCodebase(dir)).endpoints;
    expect(endpoints.map((e) => `${e.method} ${e.route} ${e.framework}`)).toEqual(['POST /api/notes hono']);
  });
});
