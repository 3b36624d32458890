// Braintree as a provider the plan designs for: Braintree keeps no idempotency key for most
// accounts, so the design derives the sale's orderId from the local key and, before an intent with an
// unknown outcome runs again, searches the transactions by that orderId. The generated TypeScript
// (provider-keys.ts: braintreeOrderId, braintreeLookup) is type-checked with the real tsc, then run
// with the runtime's reconcile() on the memory store against a gateway whose search answers with a
// Readable stream, as braintree_node's does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { reconcile, type ProviderLookup } from '@idempotency-builder/runtime/payments';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { derivePlan } from '../src/design/plan/plan.js';
import { braintreeOrderId, PROVIDER_FACTS } from '../src/design/plan/providers.js';
import { providerKeysFile } from '../src/emit/typescript/ops-files.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { FIXTURES, GENERATED_AT } from './fixtures.js';
import { compileTypeScript } from './support/typescript-compiler.js';
import { makeWorkspace } from './support/workspace.js';

const answers = answersSchema.parse({
  ...FIXTURES['express-postgres-stripe'],
  actions: FIXTURES['express-postgres-stripe'].actions.map((action) => (action.name === 'createPayment' ? { ...action, provider: 'braintree', description: 'Charges the customer through Braintree' } : action)),
  paymentProviders: ['stripe', 'braintree'],
});
const plan = derivePlan(answers);
const source = providerKeysFile(plan);
const workspace = makeWorkspace('braintree');
afterAll(() => workspace.remove());

/** A gateway whose search streams the given transactions and records the orderId searched for. */
function gateway(transactions: readonly { id: string; status: string; orderId: string | null; amount?: string }[]) {
  const searched: string[] = [];
  return {
    searched,
    transaction: {
      search(build: (search: { orderId(): { is(value: string): unknown } }) => void) {
        let wanted = '';
        build({ orderId: () => ({ is: (value: string) => (wanted = value) }) });
        searched.push(wanted);
        // braintree_node's text search may match more than the exact value: the lookup must filter.
        return Readable.from(transactions.filter((t) => t.orderId?.startsWith(wanted.slice(0, 8))).map((t) => ({ ...t, currencyIsoCode: 'EUR' })));
      },
    },
  };
}

describe('Braintree in the plan', () => {
  it('is a provider with a mechanism, a window and an example orderId derived from the local key', () => {
    const action = plan.actions.find((a) => a.action.name === 'createPayment');
    expect(action?.providerKeys).toEqual([{ provider: 'braintree', header: 'orderId', value: braintreeOrderId({ key: action!.key.storedKey, scope: action!.key.scopeExample, step: 'charge' }) }]);
    expect(action?.retention.ttlMs).toBeGreaterThanOrEqual(PROVIDER_FACTS.braintree.windowMs);
    const md = renderMarkdown(buildDesign(answers, { generatedAt: GENERATED_AT }));
    const section = md.slice(md.indexOf('<a id="providers">'), md.indexOf('## 7\\.'));
    expect(section.length).toBeGreaterThan(1000);
    expect(section).toMatch(/\| Braintree \| `orderId` on the transaction/);
    expect(section).toContain('search the transactions by that `orderId`');
    expect(section).toContain('export function braintreeLookup(');
  });

  it('generates braintreeOrderId and braintreeLookup in provider-keys.ts, which tsc accepts with the runtime’s types', async () => {
    expect(source).toContain('export function braintreeOrderId(intent: IntentId): string');
    writeFileSync(join(workspace.dir, 'provider-keys.ts'), source!);
    writeFileSync(join(workspace.dir, 'usage.ts'), [
      "import { reconcile } from '@idempotency-builder/runtime/payments';",
      "import type { Idempotency } from '@idempotency-builder/runtime';",
      "import { braintreeLookup, braintreeOrderId, type BraintreeGatewayLike } from './provider-keys.js';",
      'export async function settle(idempotency: Idempotency, gateway: BraintreeGatewayLike, idempotencyKey: string, scope: string) {',
      "  const orderId = braintreeOrderId({ key: idempotencyKey, scope, step: 'charge' });",
      "  return { orderId, report: await reconcile({ idempotency, provider: 'braintree', lookup: braintreeLookup(gateway) }) };",
      '}',
    ].join('\n'));
    const result = await compileTypeScript(workspace.dir);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 120_000);

  it('reconcile with the generated lookup: one sale completes the orphan, none releases it, two are a split brain', async () => {
    const file = join(workspace.dir, 'provider-keys-run.ts');
    writeFileSync(file, source!);
    const generated = (await import(file)) as {
      braintreeOrderId(intent: { key: string; scope: string; step?: string }): string;
      braintreeLookup(braintree: ReturnType<typeof gateway>): ProviderLookup<unknown>;
    };
    let now = 1_000_000;
    const store = createMemoryStore({ clock: () => now });
    const idempotency = createIdempotency({ store, leaseMs: 1_000 });
    const orphan = async (key: string) => {
      await store.claim({ key, scope: 'user_42', fingerprint: 'a'.repeat(64), owner: null, leaseMs: 1_000, ttlMs: 86_400_000, replaceExpired: true });
      return generated.braintreeOrderId({ key, scope: 'user_42', step: 'charge' });
    };
    const paid = await orphan('order-paid');
    const unseen = await orphan('order-unseen');
    const twice = await orphan('order-twice');
    // The builder's derivation (shown in the document) and the generated code's agree.
    expect(paid).toBe(braintreeOrderId({ key: 'order-paid', scope: 'user_42', step: 'charge' }));
    now += 5_000;
    const braintree = gateway([
      { id: 'tx_paid', status: 'submitted_for_settlement', orderId: paid, amount: '42.00' },
      // A declined attempt and a near-miss orderId are not this intent's charge.
      { id: 'tx_declined', status: 'processor_declined', orderId: unseen },
      { id: 'tx_other', status: 'settled', orderId: `${unseen}-2` },
      { id: 'tx_twice_1', status: 'settled', orderId: twice },
      { id: 'tx_twice_2', status: 'authorized', orderId: twice },
    ]);
    const report = await reconcile({ idempotency, provider: 'braintree', lookup: generated.braintreeLookup(braintree), olderThanMs: 0 });
    expect(braintree.searched.sort()).toEqual([paid, unseen, twice].sort());
    expect(Object.fromEntries(report.items.map((item) => [item.key, item.action]))).toEqual({ 'order-paid': 'completed', 'order-unseen': 'released', 'order-twice': 'split_brain' });
    const completed = await store.get({ key: 'order-paid', scope: 'user_42' });
    expect(completed?.status).toBe('COMPLETED');
    expect(JSON.parse(Buffer.from(completed!.response!.body).toString('utf8'))).toMatchObject({ provider: 'braintree', id: 'tx_paid', amount: '42.00', orderId: paid, reconciled: true });
    expect(await store.get({ key: 'order-unseen', scope: 'user_42' })).toBeNull();
    expect((await store.get({ key: 'order-twice', scope: 'user_42' }))?.status).toBe('PROCESSING');
  });
});
