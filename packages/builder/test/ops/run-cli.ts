/** Runs the idempotency-builder CLI in-process, as an operator would type it; returns its output and exit code. */
import { vi } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

export async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = 0;
  try {
    await createProgram().exitOverride().parseAsync(['node', 'idempotency-builder', ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { stdout, stderr, code };
}

/**
 * The JSON a `--json` command printed; when it is not JSON, an error carrying the exit code and
 * both streams, so a failure says what the command wrote.
 */
export function printedJson<T = unknown>(result: { stdout: string; stderr: string; code: number }): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`expected JSON on stdout (exit ${result.code}); stdout: ${JSON.stringify(result.stdout)}; stderr: ${JSON.stringify(result.stderr)}`);
  }
}
