/**
 * The pre-filter in front of the TS/JS parse and the deferred body shapes: what is parsed, what
 * waits for an endpoint to name it, and that deferring never changes which declaration wins.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineAtOffset } from '../src/inspect/location.js';
import { declaredNames, triage } from '../src/inspect/prefilter.js';
import { createShapeIndex } from '../src/inspect/shape-index.js';

describe('triage', () => {
  it('parses what a scanner reads and defers plain modules', () => {
    expect(triage('typescript', 'src/util/strings.ts', 'export class Pad { width = 2 }\nexport const pad = (s: string) => s;')).toBe('defer');
    expect(triage('typescript', 'src/db.ts', "import { Pool } from 'pg';\nexport const pool = new Pool();")).toBe('scan');
    expect(triage('typescript', 'src/db.ts', "import mysql from 'mysql2/promise';\nexport const pool = mysql.createPool({});")).toBe('scan');
    expect(triage('typescript', 'src/pay.ts', 'await this.stripe_.refunds.create({ payment_intent: id });')).toBe('scan');
    expect(triage('typescript', 'src/orders.controller.ts', "@Controller('orders')\nexport class Orders { @Post() create() {} }")).toBe('scan');
    expect(triage('typescript', 'src/routes/index.ts', "export { default as orders } from './orders';")).toBe('scan');
    expect(triage('typescript', 'src/resolvers.ts', 'export const resolvers = { Mutation: { pay } };')).toBe('scan');
    expect(triage('javascript', 'src/jobs.js', 'setInterval(sweep, 60_000);')).toBe('scan');
    // An ORM import alone (entities, migrations) says nothing; a connection naming its dialect does.
    expect(triage('typescript', 'src/migrations/Migration1.ts', "import { Migration } from '@mikro-orm/migrations';\nexport class Migration1 extends Migration {}")).toBe('defer');
    expect(triage('typescript', 'src/db.ts', "import knex from 'knex';\nexport const db = knex({ client: 'pg' });")).toBe('scan');
    // File-based routes are entry points by their place, whatever they contain.
    expect(triage('typescript', 'app/api/orders/route.ts', 'export { handler as POST } from "../handler";')).toBe('scan');
    expect(triage('typescript', 'src/pages/api/orders.ts', 'export default handler;')).toBe('scan');
  });

  it('reads route verbs only where a routing framework is known', () => {
    const verbs = "client.post('/orders', body);\nmap.delete(key);";
    expect(triage('typescript', 'src/sync.ts', verbs)).toBe('defer');
    expect(triage('typescript', 'src/sync.ts', verbs, { framework: 'express' })).toBe('scan');
    expect(triage('typescript', 'src/sync.ts', `import { Hono } from 'hono';\n${verbs}`)).toBe('scan');
  });

  it('skips browser code and React components that are neither routes nor provider callers', () => {
    expect(triage('typescript', 'web/src/Checkout.tsx', 'export const Checkout = () => <form />;')).toBe('skip');
    expect(triage('typescript', 'web/src/Checkout.tsx', "const stripe = useStripe(); stripe.confirmPayment({ elements });")).toBe('scan');
    expect(triage('javascript', 'public/js/poll.js', 'setInterval(() => fetch("/pay", { method: "POST" }), 1000);')).toBe('skip');
    expect(triage('python', 'app/util.py', 'def f():\n    return 1\n')).toBe('scan');
  });
});

describe('declaredNames', () => {
  it('lists every name a parse could find a shape under, the second declarator of a list included', () => {
    expect(declaredNames('export class PayDto { amount!: number }\ninterface Refund { id: string }\ntype Capture = { amount: number }\nconst a = 1,\n  Order = z.object({ id: z.string() });'))
      .toEqual(expect.arrayContaining(['PayDto', 'Refund', 'Capture', 'a', 'Order']));
  });
});

describe('createShapeIndex', () => {
  it('loads a deferred file only when a needed name may be declared in it', () => {
    const index = createShapeIndex();
    index.defer(3, 'src/dto/pay.dto.ts', 'export class PayDto { amount!: number }');
    index.defer(4, 'src/util.ts', 'export class Other { x = 1 }');
    const loaded: string[] = [];
    const { shapes } = index.resolve(['PayDto'], (path) => {
      loaded.push(path);
      return new Map([['PayDto', ['amount']]]);
    });
    expect(loaded).toEqual(['src/dto/pay.dto.ts']);
    expect(shapes.get('PayDto')).toEqual(['amount']);
  });

  it('keeps the first declaration in walk order, deferred or scanned, and follows the bases a shape extends', () => {
    const index = createShapeIndex();
    index.add(9, new Map([['OrderBody', ['scanned']]]));
    index.defer(2, 'a/order.ts', 'export interface OrderBody { amount: number }');
    index.defer(5, 'b/base.ts', 'export class BaseBody { currency = "eur" }');
    const files: Record<string, Map<string, string[]>> = {
      'a/order.ts': new Map([['OrderBody', ['amount', '...BaseBody']]]),
      'b/base.ts': new Map([['BaseBody', ['currency']]]),
    };
    const { shapes, loaded } = index.resolve(['OrderBody'], (path) => files[path]);
    expect(loaded).toBe(2);
    expect(shapes.get('OrderBody')).toEqual(['amount', '...BaseBody']);
    expect(shapes.get('BaseBody')).toEqual(['currency']);
  });
});

describe('lineAtOffset', () => {
  it('counts the newlines before an offset, as a scan from the top would', () => {
    const naive = (text: string, offset: number): number => 1 + [...text.slice(0, Math.max(0, offset))].filter((c) => c === '\n').length;
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '\n', 'b') }), fc.integer({ min: -2, max: 60 }), (text, offset) => {
      expect(lineAtOffset(text, offset)).toBe(naive(text, offset));
      // A second text of the same length must not reuse the first one's line index.
      const other = text.split('').reverse().join('');
      expect(lineAtOffset(other, offset)).toBe(naive(other, offset));
    }));
  });
});
