/**
 * `npm run bench` (builder part): inspects a synthetic 10,000-file monorepo and prints wall time
 * and files/s, cold (TypeScript loaded on the way, as in one CLI run) and warm. Fails when the
 * payment call placed last in the walk is not found, or a route from a skipped tree is reported.
 * Arguments filter suites the way the runtime's bench does: this one runs when none is given or
 * one of them names `inspect`. `--files N` changes the size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { writeSyntheticRepo } from './synthetic-repo.js';

const args = process.argv.slice(2);
const sizeAt = args.indexOf('--files');
const files = sizeAt >= 0 ? Number(args[sizeAt + 1]) : 10_000;
const filters = args.filter((arg, i) => !arg.startsWith('--') && (sizeAt < 0 || i !== sizeAt + 1));

if (filters.length > 0 && !filters.some((name) => 'inspect'.includes(name))) {
  process.exit(0);
}

const root = mkdtempSync(join(tmpdir(), 'inspect-bench-'));
try {
  console.log(`\n## builder: inspect a synthetic monorepo (inspect.bench.ts) — node ${process.version}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const repo = writeSyntheticRepo(root, { files });
  // CPU time beside wall time: on a shared machine the wall figure mostly measures the others' load.
  console.log('\n| run | files | parsed | wall ms | cpu ms | files/s (wall) | endpoints | payment call last in walk |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const run of ['cold', 'warm']) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const inspection = await inspectCodebase(repo.root);
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const found = inspection.paymentCalls.some((c) => c.location === repo.paymentLocation && !c.passesIdempotencyKey);
    const leaked = inspection.endpoints.filter((e) => e.route.includes(repo.skippedRouteMarker));
    const missing = repo.routes.filter((r) => !inspection.endpoints.some((e) => `${e.method} ${e.route}` === r));
    console.log(`| ${run} | ${inspection.filesScanned} | ${inspection.filesParsed ?? ''} | ${wallMs.toFixed(0)} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} | ${Math.round(inspection.filesScanned / (wallMs / 1000))} | ${inspection.endpoints.length} | ${found ? 'found' : 'MISSED'} |`);
    if (!found || leaked.length > 0 || missing.length > 0 || inspection.filesScanned !== repo.files) {
      console.error(`inspect bench failed: payment call ${found ? 'found' : 'missed'}, ${leaked.length} route(s) from skipped trees, ${missing.length} route(s) missing (${missing.slice(0, 3).join(', ')}), ${inspection.filesScanned}/${repo.files} files listed`);
      process.exitCode = 1;
      break;
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
