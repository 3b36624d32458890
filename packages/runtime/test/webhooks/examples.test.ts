/** examples/webhooks run as scripts (tsx), against the sources. */
import { describe, expect, it } from 'vitest';
import { runExample } from '../functions/run-example.js';

describe('examples/webhooks', () => {
  it.each([
    ['webhooks/stripe-express.ts', 'handler runs: 1'],
    ['webhooks/adyen-fastify.ts', "'8815329842815468:CAPTURE:true'"],
    ['webhooks/github-fetch.ts', 'handler runs: 1'],
  ])('%s', async (file, expected) => {
    const { code, output } = await runExample(file);
    expect(output).toContain(expected);
    expect(code).toBe(0);
  });
});
