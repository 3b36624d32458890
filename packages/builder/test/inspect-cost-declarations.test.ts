/**
 * Duplicate cost reads calls, never declarations: a GraphQL builder's `resolve(root, args) {` that
 * pays must not make every other `resolve(…) {` method "reach" the payment.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCosts, withoutDeclarations } from '../src/inspect/cost.js';
import type { EndpointFinding, PaymentCallFinding } from '../src/inspect/types.js';

const root = mkdtempSync(join(tmpdir(), 'inspect-cost-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, lines: string[]) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), lines.join('\n'));
};

const field = (name: string, body: string[]) => [
  `builder.mutationField('${name}', (t) =>`,
  '  t.field({',
  "    type: 'Boolean',",
  '    async resolve(_root, args) {',
  ...body.map((line) => `      ${line}`),
  '      return true;',
  '    },',
  '  }),',
  ');',
];
write('src/graphql/pay.ts', field('pay', ["await stripe.paymentIntents.create({ amount: args.amount, currency: 'usd' });"]));
write('src/graphql/rename.ts', field('rename', ['await db.user.update({ where: { id: args.id }, data: { name: args.name } });']));
write('src/graphql/checkout.ts', ["import { chargeCard } from '../billing';", ...field('checkout', ['await chargeCard(args.cartId);'])]);
write('src/billing.ts', ['export async function chargeCard(cartId: string) {', "  return stripe.charges.create({ amount: 100, currency: 'usd', source: cartId });", '}']);

const payments: PaymentCallFinding[] = [
  { provider: 'stripe', call: 'stripe.paymentIntents.create', location: 'src/graphql/pay.ts:5', passesIdempotencyKey: false },
  { provider: 'stripe', call: 'stripe.charges.create', location: 'src/billing.ts:2', passesIdempotencyKey: false },
];
const mutation = (file: string, start: number, name: string): EndpointFinding => ({
  method: 'POST', route: '/graphql', framework: 'other', location: `${file}:${start}`, handler: 'resolve', bodyFields: [], webhook: false,
  span: { start, end: start + 3 }, operation: `mutation ${name}`,
});

describe('duplicate cost: declarations are no calls', () => {
  const pay = mutation('src/graphql/pay.ts', 4, 'pay');
  const rename = mutation('src/graphql/rename.ts', 4, 'rename');
  const checkout = mutation('src/graphql/checkout.ts', 5, 'checkout');
  const costs = assessCosts([pay, rename, checkout], { root, paymentCalls: payments });

  it("another method's own `resolve(…) {` header does not reach the paying resolver", () => {
    expect(costs.get(pay)?.level).toBe('money');
    expect(costs.get(rename)?.level).toBe('write');
    expect(costs.get(rename)?.evidence.join()).not.toMatch(/through resolve\(\)/);
  });

  it('a real call inside such a method still reaches the payment it makes', () => {
    expect(costs.get(checkout)).toMatchObject({ level: 'money', evidence: ['reaches stripe.charges.create (src/billing.ts:2) through chargeCard()'] });
  });

  it('takes out method, modifier and Python def headers; keeps statements and trailing-block calls', () => {
    expect(withoutDeclarations('  async resolve(_, args) {\n    return resolve(args);', 'a.ts')).toBe('  async (_, args) {\n    return resolve(args);');
    expect(withoutDeclarations('  public charge(o: Order): Promise<void> {', 'a.ts')).toBe('  public (o: Order): Promise<void> {');
    expect(withoutDeclarations('const r = { pay(input) {', 'a.js')).toBe('const r = { (input) {');
    expect(withoutDeclarations('    def mutate(root, info):', 'm.py')).toBe('    def (root, info):');
    expect(withoutDeclarations('  if (paid) {\n  } catch (e) {', 'a.ts')).toBe('  if (paid) {\n  } catch (e) {');
    expect(withoutDeclarations('  charge(order)\n  if (x) {', 'a.ts')).toBe('  charge(order)\n  if (x) {');
    expect(withoutDeclarations('  withPayment(order) {', 'Pay.kt')).toBe('  withPayment(order) {');
  });
});
