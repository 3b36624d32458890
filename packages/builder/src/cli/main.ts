#!/usr/bin/env node
/** Entry point of the `idempotency-builder` bin: parses the command line and runs one command. */
import { createProgram } from './program.js';

// No top-level await: the bin must also load from the CommonJS build.
createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message ?? String(error)}\n`);
    process.exitCode = 1;
  });
