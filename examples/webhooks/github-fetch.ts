/**
 * A GitHub webhook as a fetch handler (Next.js route handler, Bun, Deno): `request.arrayBuffer()`
 * is the raw body, `@octokit/webhooks-methods` verifies, `X-GitHub-Delivery` dedupes.
 * Run: npx tsx examples/webhooks/github-fetch.ts
 */
import { sign, verify } from '@octokit/webhooks-methods';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { createWebhookHandler, fetchWebhook, githubProvider } from '@idempotency-builder/runtime/webhooks';

const secret = process.env.GITHUB_WEBHOOK_SECRET ?? 'example-secret';
let builds = 0;

export const POST = fetchWebhook(
  createWebhookHandler({
    idempotency: createIdempotency({ store: createMemoryStore() }),
    provider: githubProvider({ verify, secret }),
    handler: (event) => {
      builds++;
      console.log(`  handler: ${event.type} delivery ${event.id} for ${event.account}`);
    },
  }),
);

const body = JSON.stringify({ ref: 'refs/heads/main', after: 'a1b2c3' });
const headers = {
  'content-type': 'application/json',
  'x-github-event': 'push',
  'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
  'x-github-hook-installation-target-type': 'repository',
  'x-github-hook-installation-target-id': '123456',
  'x-hub-signature-256': await sign(secret, body),
};
for (const label of ['delivery  ', 'redelivery']) {
  const response = await POST(new Request('http://localhost/api/github', { method: 'POST', headers, body }));
  console.log(`${label}: ${response.status} ${await response.text()}`);
}
const forged = await POST(new Request('http://localhost/api/github', { method: 'POST', headers: { ...headers, 'x-hub-signature-256': await sign('wrong', body) }, body }));
console.log(`forged    : ${forged.status} ${forged.headers.get('content-type')}`);
console.log(`handler runs: ${builds}`);
if (builds !== 1 || forged.status !== 400) process.exit(1);
