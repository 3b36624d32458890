/**
 * Writes a synthetic service monorepo of a chosen size for the inspector's bench and scale test:
 * Express services with routers mounted under prefixes and zod DTOs in their own files, a FastAPI
 * service, thousands of plain library files, trees the walk must skip (node_modules, tests,
 * fixtures, vendor, dist) — each holding a route that must not be reported — and one Stripe call
 * placed deepest in the tree, so it is the last file the breadth-first walk reaches.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SyntheticRepoOptions {
  /** Source files the walk must read, the payment module included (default 10,000). */
  readonly files?: number;
  /** Lines of code per library file (default 60: about 2.5 KB, a typical module). */
  readonly libraryLines?: number;
}

export interface SyntheticRepo {
  readonly root: string;
  /** Source files written outside skipped trees (what the walk must list). */
  readonly files: number;
  /** Mutating routes declared (method + full path). */
  readonly routes: readonly string[];
  /** `path:line` of the Stripe call without an idempotency key. */
  readonly paymentLocation: string;
  /** Route paths written only inside skipped trees: none may be reported. */
  readonly skippedRouteMarker: string;
}

const ENTITIES = ['order', 'invoice', 'shipment', 'refund', 'customer'];
const SERVICES = 20;
const SKIPPED_MARKER = '/must-not-be-reported';

function write(root: string, relPath: string, text: string): void {
  const path = join(root, relPath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function routerFile(entity: string): string {
  const Entity = entity[0]?.toUpperCase() + entity.slice(1);
  return `import { Router } from 'express';
import { Create${Entity}Body, Update${Entity}Body } from '../dto/${entity}.dto';
import { ${entity}Store } from '../lib/${entity}-store';

export const ${entity}Routes = Router();

${entity}Routes.post('/', async (req, res) => {
  const body = Create${Entity}Body.parse(req.body);
  const created = await ${entity}Store.insert(body);
  res.status(201).json(created);
});

${entity}Routes.put('/:id', async (req, res) => {
  const body = Update${Entity}Body.parse(req.body);
  res.json(await ${entity}Store.update(req.params.id, body));
});

${entity}Routes.delete('/:id', async (req, res) => {
  await ${entity}Store.remove(req.params.id);
  res.status(204).end();
});
`;
}

function dtoFile(entity: string): string {
  const Entity = entity[0]?.toUpperCase() + entity.slice(1);
  return `import { z } from 'zod';

export const Create${Entity}Body = z.object({ reference: z.string(), amountCents: z.number().int(), currency: z.string().length(3) });
export const Update${Entity}Body = z.object({ status: z.enum(['open', 'closed']), note: z.string().optional() });
`;
}

function appFile(service: string): string {
  const imports = ENTITIES.map((e) => `import { ${e}Routes } from './routes/${e}-routes';`).join('\n');
  const mounts = ENTITIES.map((e) => `app.use('/api/${service}/${e}s', ${e}Routes);`).join('\n');
  return `import express from 'express';\n${imports}\n\nexport const app = express();\napp.use(express.json());\n${mounts}\n`;
}

/** A plain module: helpers, a class and an interface, none of them anything the scanners report. */
function libraryFile(name: string, index: number, lines: number): string {
  const out = [`/** ${name}: formatting and arithmetic helpers (${index}). */`, `export interface ${pascal(name)}Options { readonly precision: number; readonly label: string }`, ''];
  for (let i = 0; out.length < lines; i += 1) {
    out.push(
      `export function ${camel(name)}Step${i}(values: readonly number[], options: ${pascal(name)}Options): string {`,
      '  let total = 0;',
      `  for (const value of values) total += Math.round(value * ${i + 2}) / ${i + 3};`,
      '  return `${options.label}: ${total.toFixed(options.precision)}`;',
      '}',
      '',
    );
  }
  out.push(`export class ${pascal(name)}Cache {`, '  private readonly entries = new Map<string, number>();', '  get(key: string): number | undefined {', '    return this.entries.get(key);', '  }', '}', '');
  return out.join('\n');
}

function pythonModule(index: number): string {
  return `"""Ledger helpers ${index}."""\n\n\ndef balance_${index}(entries):\n    total = 0\n    for entry in entries:\n        total += entry.get("amount", 0)\n    return total\n`;
}

const pascal = (s: string): string => s.split('-').map((p) => (p[0]?.toUpperCase() ?? '') + p.slice(1)).join('');
const camel = (s: string): string => {
  const p = pascal(s);
  return (p[0]?.toLowerCase() ?? '') + p.slice(1);
};

/** Trees the walk skips, each with a route that would be reported if it were read. */
function writeSkippedTrees(root: string): void {
  const route = `import express from 'express';\nconst app = express();\napp.post('${SKIPPED_MARKER}', (req, res) => res.json(req.body));\n`;
  for (const tree of ['node_modules/some-lib', 'services/svc-00/test', 'services/svc-01/src/__tests__', 'fixtures/app', 'vendor/legacy', 'dist', 'services/svc-02/e2e']) {
    for (let i = 0; i < 20; i += 1) write(root, `${tree}/route-${i}.ts`, route);
  }
}

/**
 * Writes the repository under `root` (which should be empty).
 * @example const repo = writeSyntheticRepo(mkdtempSync(join(tmpdir(), 'bench-'))); repo.files // 10000
 */
export function writeSyntheticRepo(root: string, { files = 10_000, libraryLines = 60 }: SyntheticRepoOptions = {}): SyntheticRepo {
  let written = 0;
  const routes: string[] = [];
  write(root, 'package.json', JSON.stringify({ name: 'synthetic-monorepo', private: true, dependencies: { express: '^5.1.0', stripe: '^18.0.0', pg: '^8.16.0', zod: '^4.1.0' }, devDependencies: { typescript: '^5.9.0' } }, null, 2));
  write(root, 'tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
  written += 2;
  for (let s = 0; s < SERVICES; s += 1) {
    const service = `svc-${String(s).padStart(2, '0')}`;
    const base = `services/${service}`;
    write(root, `${base}/src/app.ts`, appFile(service));
    write(root, `${base}/src/db.ts`, "import { Pool } from 'pg';\n\nexport const pool = new Pool({ connectionString: process.env.DATABASE_URL });\n");
    written += 2;
    for (const entity of ENTITIES) {
      write(root, `${base}/src/routes/${entity}-routes.ts`, routerFile(entity));
      write(root, `${base}/src/dto/${entity}.dto.ts`, dtoFile(entity));
      write(root, `${base}/src/lib/${entity}-store.ts`, `export const ${entity}Store = {\n  async insert(row: object) { return { id: '1', ...row }; },\n  async update(id: string, row: object) { return { id, ...row }; },\n  async remove(id: string) { return id; },\n};\n`);
      written += 3;
      routes.push(`POST /api/${service}/${entity}s`, `PUT /api/${service}/${entity}s/:id`, `DELETE /api/${service}/${entity}s/:id`);
    }
  }
  write(root, 'services/py-ledger/requirements.txt', 'fastapi==0.115.0\n');
  write(root, 'services/py-ledger/app/routers/entries.py', 'from fastapi import APIRouter\nfrom pydantic import BaseModel\n\nrouter = APIRouter(prefix="/ledger")\n\n\nclass Entry(BaseModel):\n    account: str\n    amount: int\n\n\n@router.post("/entries")\ndef add_entry(entry: Entry):\n    return entry\n');
  written += 2;
  routes.push('POST /ledger/entries');
  // The rest are plain modules, one in ten in Python, spread over the services' lib folders.
  const payment = 'services/zz-billing/src/modules/payments/providers/stripe/internal/capture/charge-customer.ts';
  const plain = files - written - 1;
  for (let i = 0; i < plain; i += 1) {
    const service = `svc-${String(i % SERVICES).padStart(2, '0')}`;
    if (i % 10 === 9) write(root, `services/py-ledger/app/core/part_${Math.floor(i / 500)}/module_${i}.py`, pythonModule(i));
    else write(root, `services/${service}/src/lib/group-${Math.floor(i / 400)}/helper-${i}.ts`, libraryFile(`helper-${i}`, i, libraryLines));
  }
  // Deepest folder of the tree: the breadth-first walk lists it after every other file.
  write(root, payment, `import Stripe from 'stripe';\n\nconst stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');\n\nexport async function chargeCustomer(customer: string, amountCents: number): Promise<string> {\n  const intent = await stripe.paymentIntents.create({ amount: amountCents, currency: 'eur', customer, confirm: true });\n  return intent.id;\n}\n`);
  writeSkippedTrees(root);
  return { root, files, routes, paymentLocation: `${payment}:6`, skippedRouteMarker: SKIPPED_MARKER };
}
