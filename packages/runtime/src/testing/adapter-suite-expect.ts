/** Assertions the adapter suite shares: problem+json shape, log-safe bodies, no stack traces. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CallResult } from './adapter-suite-client.js';

export const newKey = () => `key-${randomUUID()}`;
export const newProbe = () => `probe-${randomUUID()}`;

export function expectProblem(result: CallResult, status: number, code: string): void {
  expect(result.status).toBe(status);
  expect(result.header('content-type')).toMatch(/^application\/problem\+json/);
  const problem = result.json<{ type: string; code: string; status: number; title: string }>();
  expect(problem.code).toBe(code);
  expect(problem.status).toBe(status);
  expect(problem.type).toMatch(new RegExp(`${code}$`));
  expect(problem.title.length).toBeGreaterThan(0);
}

/** A problem body says nothing about the request: no key, no field values, no hash. */
export function expectHygiene(result: CallResult, secrets: readonly string[]): void {
  for (const secret of secrets) expect(result.text).not.toContain(secret);
  expect(result.text).not.toMatch(/[0-9a-f]{64}/);
  expect(result.header('idempotent-replayed')).toBeUndefined();
}

/** Nothing in the body looks like a stack trace or an HTML error page. */
export function expectNoStackTrace(result: CallResult): void {
  expect(result.text).not.toMatch(/\n\s+at |<html|<pre>|Error: /i);
}
