/**
 * `npm run bench`: runs every `bench/*.bench.ts` suite (or those named on the command line) in
 * one process, each against a baseline measured in the same run. Suites import the BUILT package
 * (`@idempotency-builder/runtime/...`, rebuilt by `prebench`): the code users run, measured the
 * same way as the peer libraries' published builds.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { consoleReporter, type BenchSuite } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.includes(name)))
  .sort();

console.log(`# idempotency-builder benchmarks — ${new Date().toISOString()} — node ${process.version}`);
for (const file of files) {
  const suite = (await import(pathToFileURL(join(here, file)).href)).default as BenchSuite;
  console.log(`\n## ${suite.name} (${file})`);
  const reason = (await suite.available?.()) ?? null;
  if (reason) {
    console.log(`skipped: ${reason}`);
    continue;
  }
  await suite.run(consoleReporter);
}
process.exit(0);
