/**
 * generate(): builds, renders, checks and writes — the document and the code — and returns the
 * summary of key decisions; it never overwrites the document unless forced, and a document that
 * misses a constraint never reaches the disk.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkDocument, DesignConstraintError } from '../src/check/index.js';
import { DocumentExistsError, generate } from '../src/generate.js';
import { fixture, GENERATED_AT } from './fixtures.js';
import { makeWorkspace } from './support/workspace.js';

// The real checker, wrapped so one test can simulate a generator regression (a document that
// misses a constraint); every other test runs the checker unchanged.
vi.mock('../src/check/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/check/index.js')>();
  return { ...real, checkDocument: vi.fn(real.checkDocument) };
});

const workspace = makeWorkspace('generate');
afterAll(() => workspace.remove());

describe('generate', () => {
  it('writes a checked HTML document and the code, and summarises the key decisions', async () => {
    const outPath = join(workspace.dir, 'html', 'docs', 'idempotency-design.html');
    const codeDir = join(workspace.dir, 'html', 'idempotency');
    const result = await generate(fixture('express-postgres-stripe'), { format: 'html', outPath, codeDir, now: GENERATED_AT });
    expect(result.written[0]).toBe(outPath);
    expect(result.written.length).toBe(1 + result.model.artifacts.length);
    const written = readFileSync(outPath, 'utf8');
    expect(written).toBe(result.document);
    expect(checkDocument(written, 'html')).toEqual([]);
    expect(result.summary[0]).toMatch(/^Store: PostgreSQL/);
    expect(result.summary.some((line) => /^Lock timeout: createPayment 8 s/.test(line))).toBe(true);
    expect(result.summary.some((line) => /^Key expiry: .*≥ Stripe window/.test(line))).toBe(true);
    expect(result.summary.some((line) => /^Assumptions: 1 answer/.test(line))).toBe(true);
  });

  it('writes Markdown, refuses to overwrite it without force, and keeps existing code files', async () => {
    const outPath = join(workspace.dir, 'md', 'design.md');
    const codeDir = join(workspace.dir, 'md', 'code');
    await generate(fixture('fastapi-postgres-paypal'), { format: 'md', outPath, codeDir, now: GENERATED_AT });
    expect(checkDocument(readFileSync(outPath, 'utf8'), 'md')).toEqual([]);
    await expect(generate(fixture('fastapi-postgres-paypal'), { format: 'md', outPath, now: GENERATED_AT })).rejects.toBeInstanceOf(DocumentExistsError);
    writeFileSync(join(codeDir, 'engine.py'), '# mine\n');
    const again = await generate(fixture('fastapi-postgres-paypal'), { format: 'md', outPath, codeDir, force: false, now: GENERATED_AT }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(DocumentExistsError);
    const forced = await generate(fixture('fastapi-postgres-paypal'), { format: 'md', outPath, codeDir: join(workspace.dir, 'md', 'code2'), force: true, now: GENERATED_AT });
    expect(forced.written[0]).toBe(outPath);
    expect(readFileSync(join(codeDir, 'engine.py'), 'utf8')).toBe('# mine\n');
  });

  it('reports kept code files in the summary', async () => {
    const codeDir = join(workspace.dir, 'kept');
    await generate(fixture('go-redis'), { format: 'md', codeDir, now: GENERATED_AT });
    const second = await generate(fixture('go-redis'), { format: 'md', codeDir, now: GENERATED_AT });
    expect(second.written).toEqual([]);
    expect(second.skipped.length).toBeGreaterThan(5);
    expect(second.summary.at(-1)).toMatch(/Kept \d+ existing file\(s\) unchanged/);
  });

  it('renders and checks without writing when no paths are given', async () => {
    const result = await generate(fixture('agnostic'), { format: 'html', now: GENERATED_AT });
    expect(result.written).toEqual([]);
    expect(result.document).toContain('<!DOCTYPE html>');
  });

  it('fails loudly with every violation rather than write a deficient document', async () => {
    const violation = { constraint: 'store-ddl' as const, message: 'No CREATE TABLE statement for the idempotency store.' };
    vi.mocked(checkDocument).mockReturnValueOnce([violation]);
    const outPath = join(workspace.dir, 'deficient', 'design.html');
    const failure = await generate(fixture('spring-postgres'), { format: 'html', outPath, codeDir: join(workspace.dir, 'deficient', 'code'), now: GENERATED_AT }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DesignConstraintError);
    expect((failure as DesignConstraintError).violations).toEqual([violation]);
    expect((failure as Error).message).toContain('store-ddl: No CREATE TABLE');
    expect(existsSync(outPath)).toBe(false);
    expect(existsSync(join(workspace.dir, 'deficient', 'code'))).toBe(false);
  });
});
