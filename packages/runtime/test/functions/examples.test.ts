/** examples/functions run as scripts (tsx), against the sources. */
import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/functions', () => {
  it('charge-order.ts runs each charge and refund once', async () => {
    const { code, output } = await runExample('functions/charge-order.ts');
    expect(output).toContain('charges run: 1, refunds run: 1');
    expect(output).toContain('same id, other amount: fingerprint_mismatch');
    expect(code).toBe(0);
  });
});
