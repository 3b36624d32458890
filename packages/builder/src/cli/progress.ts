/**
 * Progress for long steps: a clack spinner on a terminal, one plain line per step otherwise (CI
 * logs, pipes), so non-interactive runs stay readable and never print spinner frames.
 */
import { spinner } from '@clack/prompts';

export interface Progress {
  start(message: string): void;
  stop(message: string): void;
  /** Ends a running step as failed; does nothing when no step is running. */
  fail(message: string): void;
}

/**
 * A spinner when `interactive`, else plain lines on `write` (stderr by default).
 * @example const progress = createProgress(process.stdout.isTTY === true); progress.start('Inspecting'); progress.stop('Inspected 42 files');
 */
export function createProgress(interactive: boolean, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Progress {
  let running = false;
  const spin = interactive ? spinner() : undefined;
  return {
    start: (message) => {
      running = true;
      if (spin) spin.start(message);
      else write(`… ${message}`);
    },
    stop: (message) => {
      running = false;
      if (spin) spin.stop(message);
      else write(`✓ ${message}`);
    },
    fail: (message) => {
      if (!running) return;
      running = false;
      if (spin) spin.error(message);
      else write(`✗ ${message}`);
    },
  };
}
