/**
 * The truth check: a generated document agrees with the code written beside it and with the
 * runtime; every contradiction — a changed lease, a different claim statement, another problem
 * type, a missing file, an encryption or key-validation claim the code does not keep — is caught
 * with the document line where the claim stands.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAgainstArtifacts, findCodeDir } from '../src/check/artifact-claims.js';
import { buildDesign } from '../src/design/build-design.js';
import { renderHtml } from '../src/render/html.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { FIXTURE_NAMES, fixture, GENERATED_AT, type FixtureName } from './fixtures.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const workspace = makeWorkspace('truth');
afterAll(() => workspace.remove());

async function generated(name: FixtureName, label: string) {
  const model = buildDesign(fixture(name), { generatedAt: GENERATED_AT });
  const dir = join(workspace.dir, label);
  const code = join(dir, 'idempotency');
  writeArtifacts(code, model.artifacts);
  const html = await renderHtml(model);
  const md = renderMarkdown(model);
  writeFileSync(join(dir, 'design.html'), html);
  return { model, dir, code, html, md };
}

const checks = (violations: readonly { check: string }[]) => [...new Set(violations.map((v) => v.check))].sort();

describe('checkAgainstArtifacts', () => {
  it('passes every fixture’s document against its own code, in HTML and Markdown', async () => {
    for (const name of FIXTURE_NAMES) {
      const { code, html, md } = await generated(name, `ok-${name}`);
      expect(checkAgainstArtifacts(html, 'html', code), name).toEqual([]);
      expect(checkAgainstArtifacts(md, 'md', code), name).toEqual([]);
    }
  });

  it('finds the code directory beside the document', async () => {
    const { dir, code, html } = await generated('express-postgres-stripe', 'find');
    expect(findCodeDir(join(dir, 'design.html'), html, 'html')).toBe(code);
  });

  it('fails with the line when the generated lease differs from the document’s', async () => {
    const { code, html } = await generated('express-postgres-stripe', 'lease');
    const file = join(code, 'idempotency.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/(createPayment: \{ leaseMs: )[\d_]+/, '$1 99_000'));
    const violations = checkAgainstArtifacts(html, 'html', code);
    expect(checks(violations)).toEqual(['policy']);
    expect(violations[0]?.message).toMatch(/createPayment.*leaseMs 99000 \(99 s\)/);
    expect(violations.every((v) => v.line > 0)).toBe(true);
    // The line points at the claim: that line of the document names the lock timeout.
    expect(html.split('\n')[(violations[0]?.line ?? 1) - 1]).toMatch(/Lock timeout/);
  });

  it('fails when the queries file runs another claim statement than the one the document quotes', async () => {
    const { code, html } = await generated('express-postgres-stripe', 'statement');
    const file = join(code, 'db', 'idempotency_queries.sql');
    // Change the claim's statement only (its block runs from "-- name: claim" to the next "-- name:").
    writeFileSync(file, readFileSync(file, 'utf8').replace(/(-- name: claim\n(?:--[^\n]*\n)*)([^\n]*)/, '$1$2 /* changed */'));
    const violations = checkAgainstArtifacts(html, 'html', code);
    expect(checks(violations)).toEqual(['statement']);
    expect(violations[0]?.line).toBeGreaterThan(0);
  });

  it('fails when the document’s problem type is not the runtime’s', async () => {
    const { code, md } = await generated('express-postgres-stripe', 'problem');
    const violations = checkAgainstArtifacts(md.replace('problem:fingerprint_mismatch', 'problem:conflict'), 'md', code);
    expect(checks(violations)).toEqual(['problem']);
    expect(violations[0]?.message).toContain('urn:idempotency-builder:problem:fingerprint_mismatch');
    expect(md.replace('problem:fingerprint_mismatch', 'problem:conflict').split('\n')[(violations[0]?.line ?? 1) - 1]).toContain('problem:conflict');
  });

  it('fails when a listed or embedded artifact is missing or differs, in HTML and Markdown', async () => {
    const { code, html, md } = await generated('express-postgres-stripe', 'missing');
    rmSync(join(code, 'cleanup.ts'));
    const file = join(code, 'fingerprints.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const extra = 1;\n`);
    // A long file sits in a collapsed section; an edit to it must be caught as well.
    const adapter = join(code, 'express.ts');
    expect(md).toMatch(/\*express\.ts\*\n\n<details><summary>/);
    writeFileSync(adapter, readFileSync(adapter, 'utf8').replace('newKeysPerWindow: 100', 'newKeysPerWindow: 7'));
    for (const [document, format] of [[html, 'html'], [md, 'md']] as const) {
      const violations = checkAgainstArtifacts(document, format, code);
      expect(checks(violations), format).toEqual(['artifact-differs', 'artifact-missing']);
      expect(violations.find((v) => v.check === 'artifact-missing')?.message, format).toContain('cleanup.ts');
      const differs = violations.filter((v) => v.check === 'artifact-differs').map((v) => v.message);
      expect(differs.some((m) => m.includes('fingerprints.ts')), format).toBe(true);
      expect(differs.some((m) => m.includes('express.ts')), format).toBe(true);
    }
    expect(checks(checkAgainstArtifacts(html, 'html', join(code, 'nowhere')))).toEqual(['artifact-missing']);
  });

  it('fails on an encryption claim the code does not keep, and on a key rule stricter than the runtime’s', async () => {
    const { code, md } = await generated('express-postgres-stripe', 'claims');
    const damaged = md
      .replace('## 8\\. Security', '## 8\\. Security\n\nPayment responses are encrypted at rest.')
      .replace('## 9\\. Anti-patterns to avoid', '## 9\\. Anti-patterns to avoid\n\nAny key that is not a UUID or ULID is refused with 400.')
      .replace('## 10\\. Monitoring and alerting', '## 10\\. Monitoring and alerting\n\nClaim, business writes and completion commit in one database transaction.');
    expect(damaged).not.toBe(md);
    const violations = checkAgainstArtifacts(damaged, 'md', code);
    expect(checks(violations)).toEqual(['encryption', 'key-validation', 'transactional']);
    for (const v of violations) expect(damaged.split('\n')[v.line - 1]).toMatch(/encrypted at rest|refused with 400|one database transaction/);
  });

  it('reads a standalone project’s project.json: a changed key expiry there is caught', async () => {
    const { code, html } = await generated('fastapi-postgres-paypal', 'python');
    const file = join(code, 'project.json');
    const data = JSON.parse(readFileSync(file, 'utf8')) as { actions: Record<string, { ttlMs: number }> };
    const [name] = Object.keys(data.actions);
    (data.actions[name as string] as { ttlMs: number }).ttlMs = 60_000;
    writeFileSync(file, JSON.stringify(data, null, 2));
    const violations = checkAgainstArtifacts(html, 'html', code);
    expect(checks(violations)).toEqual(expect.arrayContaining(['policy']));
    expect(violations.some((v) => v.check === 'policy' && v.message.includes(`${name}; the generated code sets ttlMs 60000`))).toBe(true);
  });
});
