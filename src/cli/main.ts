#!/usr/bin/env node
/** Entry point of the `idempotency-builder` bin: parses the command line and runs one command. */
import { createProgram } from './program.js';

await createProgram().parseAsync(process.argv);
