/**
 * The inspector on a repository of more than 10,000 files: no cap drops the module the walk
 * reaches last. Not timed — speed is the bench's business (bench/inspect.bench.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRepo, type SyntheticRepo } from '../bench/synthetic-repo.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { walkSourceFiles } from '../src/inspect/walk.js';

describe('a payment module after 10,000 other files', () => {
  let repo: SyntheticRepo;
  beforeAll(() => {
    // Short library files: the walk and the pre-filter see as many files, the test writes less.
    repo = writeSyntheticRepo(mkdtempSync(join(tmpdir(), 'inspect-scale-')), { files: 10_050, libraryLines: 8 });
  }, 180_000);
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  it('is the last file of the walk, after more than 10,000 others', () => {
    const { files, truncated } = walkSourceFiles(repo.root);
    expect(truncated).toBe(false);
    expect(files).toHaveLength(repo.files);
    expect(files.findIndex((f) => repo.paymentLocation.startsWith(`${f.relPath}:`))).toBe(files.length - 1);
  });

  it('is found, with the missing idempotency key, and nothing from the skipped trees is reported', async () => {
    const inspection = await inspectCodebase(repo.root);
    expect(inspection.filesScanned).toBe(repo.files);
    expect(inspection.truncated).toBe(false);
    expect(inspection.paymentCalls).toContainEqual(expect.objectContaining({
      provider: 'stripe', call: 'stripe.paymentIntents.create', location: repo.paymentLocation, passesIdempotencyKey: false,
    }));
    expect(inspection.endpoints.filter((e) => e.route.includes(repo.skippedRouteMarker))).toEqual([]);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual([...repo.routes].sort());
    // Body shapes live in files the pre-filter deferred: they are still resolved.
    expect(inspection.endpoints.find((e) => e.route === '/api/svc-07/invoices')?.bodyFields).toEqual(['reference', 'amountCents', 'currency']);
  }, 180_000);
});
