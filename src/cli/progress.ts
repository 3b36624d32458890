/**
 * Progress for long steps: a clack spinner on a terminal, one plain line per step otherwise (CI
 * logs, pipes), so non-interactive runs stay readable and never print spinner frames.
 */
import { spinner } from '@clack/prompts';

export interface Progress {
  start(message: string): void;
  stop(message: string): void;
  fail(message: string): void;
}

/**
 * A spinner when `interactive`, else plain lines on `write` (stderr by default).
 * @example const progress = createProgress(process.stdout.isTTY === true); progress.start('Inspecting'); progress.stop('Inspected 42 files');
 */
export function createProgress(interactive: boolean, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Progress {
  if (!interactive) {
    return {
      start: (message) => write(`… ${message}`),
      stop: (message) => write(`✓ ${message}`),
      fail: (message) => write(`✗ ${message}`),
    };
  }
  const spin = spinner();
  return {
    start: (message) => spin.start(message),
    stop: (message) => spin.stop(message),
    fail: (message) => spin.error(message),
  };
}
