/**
 * `--answers FILE`: YAML and JSON load, partial answers stay partial (missing ones are asked or
 * assumed, never silently defaulted), durations are read as people write them, and every error
 * names the file and the field path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswersFileError, loadAnswersFile, parseAnswers } from '../src/answers-file.js';
import { IdempotencyError } from '@idempotency-builder/runtime';

const dir = mkdtempSync(join(tmpdir(), 'answers-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function errorOf(run: () => unknown): AnswersFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof AnswersFileError) return error;
    throw error;
  }
  throw new Error('expected an AnswersFileError');
}

describe('answers file', () => {
  it('loads a partial YAML file: given answers typed, durations in ms, nothing defaulted', () => {
    const path = file('answers.yaml', [
      'stack:',
      '  database: postgresql',
      'retentionMs: 48h',
      'detectionLatencyMs: 50',
      'actions:',
      '  - name: createPayment',
      '    kind: http',
      '    significantFields: [amount, currency, recipientId]',
      '    expectedDurationMs: 3s',
    ].join('\n'));
    const answers = loadAnswersFile(path);
    expect(answers).toEqual({
      stack: { database: 'postgresql' },
      retentionMs: 48 * 3_600_000,
      detectionLatencyMs: 50,
      actions: [{ name: 'createPayment', kind: 'http', significantFields: ['amount', 'currency', 'recipientId'], expectedDurationMs: 3000 }],
    });
    // format, scope, keySource have schema defaults; a partial file must leave them unanswered.
    expect(answers).not.toHaveProperty('format');
    expect(answers).not.toHaveProperty('scope');
    expect(answers.actions?.[0]).not.toHaveProperty('keySource');
  });

  it('loads JSON and an empty file', () => {
    expect(loadAnswersFile(file('a.json', '{"format":"md","paymentProviders":["adyen"]}'))).toEqual({ format: 'md', paymentProviders: ['adyen'] });
    expect(loadAnswersFile(file('empty.yaml', ''))).toEqual({});
  });

  it('reports every invalid field with its path, and the file name, as a typed error', () => {
    const path = file('bad.yaml', [
      'format: pdf',
      'stack: { database: oracle, lang: go }',
      'retentionMs: soon',
      'concurrency: huge',
      'actions:',
      '  - name: 1st-action',
      '    kind: http',
      '  - kind: consumer',
      'colour: blue',
    ].join('\n'));
    const error = errorOf(() => loadAnswersFile(path));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error.code).toBe('invalid_options');
    expect(error.file).toBe(path);
    const byPath = Object.fromEntries(error.issues.map((issue) => [issue.path, issue.message]));
    expect(Object.keys(byPath).sort()).toEqual(['', 'actions[0].name', 'actions[1].name', 'concurrency', 'format', 'retentionMs', 'stack', 'stack.database'].sort());
    expect(byPath['stack.database']).toMatch(/postgresql/);
    expect(byPath.stack).toBe('unknown field(s) "lang"');
    expect(byPath['']).toBe('unknown field(s) "colour"');
    expect(byPath.retentionMs).toMatch(/not a positive duration.*24h/);
    expect(byPath['actions[0].name']).toMatch(/e\.g\. createPayment/);
    expect(error.message).toContain(`Invalid answers file ${path}:`);
    expect(error.message).toContain('  - stack.database: ');
  });

  it('explains unreadable, unparsable and non-mapping files', () => {
    expect(errorOf(() => loadAnswersFile(join(dir, 'missing.yaml'))).issues[0]?.message).toMatch(/cannot be read \(ENOENT\)/);
    expect(errorOf(() => loadAnswersFile(file('broken.yaml', 'stack: [unclosed'))).issues[0]?.message).toMatch(/is not valid YAML/);
    expect(errorOf(() => loadAnswersFile(file('broken.json', '{"a":'))).issues[0]?.message).toMatch(/is not valid JSON/);
    expect(errorOf(() => loadAnswersFile(file('list.yaml', '- a\n- b\n'))).issues[0]?.message).toMatch(/must be a mapping/);
  });

  it('validates objects built in code the same way', () => {
    expect(errorOf(() => parseAnswers({ retentionMs: 0 }, 'inline')).issues).toEqual([
      { path: 'retentionMs', message: expect.stringMatching(/^0 is not a positive duration/) },
    ]);
    expect(errorOf(() => parseAnswers({ actions: [] }, 'inline')).issues[0]?.path).toBe('actions');
  });
});
