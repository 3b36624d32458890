/**
 * HTTP overhead of the idempotency adapters: Express 5, Fastify 5, Hono 4 (@hono/node-server) and Koa 3,
 * each over the memory and SQLite stores, one server process per framework × store, driven by
 * autocannon on loopback. Per server, five cases with the same handler: unprotected (baseline),
 * the least adapter with a new key per request and replaying one key (the in-situ floors:
 * http/adapter-ladder.ts), protected with a new key per request, protected replays of one key, and duplicates rejected
 * while the key is in progress. Cases run in interleaved rounds (every server, every case, then
 * again), so a noisy neighbour slows them all alike; ratios are protected ÷ unprotected of the
 * same server in the same run. Beside throughput, each case reports the server's CPU time per
 * request (process.cpuUsage delta ÷ requests served): on a shared machine the steadier figure.
 *
 * Run: npx tsx bench/run.ts http
 * Env: BENCH_HTTP_SECONDS  seconds per case per round (default 1)
 *      BENCH_HTTP_ROUNDS   rounds (default 3)
 *      BENCH_HTTP_STORES   default memory,sqlite (postgres and redis run when listed and reachable)
 *      BENCH_HTTP_FRAMEWORKS  default express,fastify,hono,koa
 *      BENCH_HTTP_CASES    default plain,least,least-replay,fresh,replay,duplicates; engine and layer (the rungs
 *                          between the least adapter and ours) when listed
 *      BENCH_HTTP_CONNECTIONS  default 32
 *      BENCH_HTTP_CPU_PROF a directory: servers run under --cpu-prof and write their profiles there
 *      IDEMPOTENCY_BENCH_RUNTIME_DIST  a private dist to load the runtime from (see runtime-import.ts)
 */
import { loadavg } from 'node:os';
import { probeTcp } from '../test/support/services.js';
import { FRAMEWORKS, HANDLER_DESCRIPTION, type BenchFramework } from './http/apps.js';
import { load, request, startServer, type AutocannonRequest, type AutocannonResult, type BenchServer } from './http/load.js';
import { ceiling, measureFloor, type RequestFloor } from './http/floor.js';
import { STORE_KINDS, type BenchStoreKind } from './http/stores.js';
import type { BenchSuite, Reporter, Row } from './harness.js';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? process.env.HTTP_BENCH_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32);
const list = <T extends string>(env: string | undefined, all: readonly T[], fallback: readonly T[]): T[] => {
  if (!env) return [...fallback];
  const wanted = env.split(',').map((item) => item.trim());
  const unknown = wanted.filter((item) => !all.includes(item as T));
  if (unknown.length > 0) throw new Error(`unknown ${unknown.join(', ')}: expected some of ${all.join(', ')}`);
  return wanted as T[];
};
const CASES = ['plain', 'least', 'least-replay', 'engine', 'layer', 'fresh', 'replay', 'duplicates'] as const;
/** The rungs between the least adapter and ours (adapter-ladder.ts) run only when asked for. */
const DEFAULT_CASES: readonly CaseName[] = ['plain', 'least', 'least-replay', 'fresh', 'replay', 'duplicates'];
type CaseName = (typeof CASES)[number];

const LABELS: Record<CaseName, string> = {
  plain: 'unprotected handler (baseline)',
  least: 'least adapter, new key per request (in-situ floor)',
  'least-replay': 'least adapter, replay of one key (in-situ floor)',
  engine: 'rung: the engine in the least adapter\'s hooks, new key',
  layer: 'rung: the HTTP layer in the least adapter\'s hooks, new key',
  fresh: 'protected, new key per request',
  replay: 'protected, replay of one key',
  duplicates: 'duplicates while in progress (409)',
};
/** The status every response of a case should have. */
const EXPECTED: Record<CaseName, string> = { plain: '201', least: '201', 'least-replay': '201', engine: '201', layer: '201', fresh: '201', replay: '201', duplicates: '409' };

/** One case of one server, summed over the rounds. */
interface Tally {
  requests: number;
  seconds: number;
  p50: number[];
  p99: number[];
  statuses: Record<string, number>;
  errors: number;
  cpuUs: number;
  served: number;
}

const newTally = (): Tally => ({ requests: 0, seconds: 0, p50: [], p99: [], statuses: {}, errors: 0, cpuUs: 0, served: 0 });
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
};
const opsOf = (tally: Tally) => tally.requests / tally.seconds;
const cpuPerRequest = (tally: Tally) => tally.cpuUs / Math.max(1, tally.served);

/** Runs one case once and adds it to its tally, with the server's CPU time over it. */
async function measure(server: BenchServer, req: AutocannonRequest, tally: Tally, seconds = SECONDS): Promise<AutocannonResult> {
  const before = await server.cpu();
  const result = await load(server.url, req, seconds, CONNECTIONS);
  const after = await server.cpu();
  tally.requests += result.requests.total;
  tally.seconds += result.duration;
  tally.p50.push(result.latency.p50);
  tally.p99.push(result.latency.p99);
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) tally.statuses[status] = (tally.statuses[status] ?? 0) + count;
  tally.errors += result.errors + result.timeouts;
  tally.cpuUs += after.cpuUs - before.cpuUs;
  tally.served += after.requests - before.requests;
  return result;
}

const post = (server: BenchServer, path: string, key?: string) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: request(path, key).headers, body: request(path).body }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });

/** Everything one server needs across the rounds: its request shapes and its tallies. */
interface Subject {
  readonly server: BenchServer;
  readonly tallies: Record<CaseName, Tally>;
  readonly shapes: Record<Exclude<CaseName, 'duplicates'>, AutocannonRequest>;
  readonly holdKey: (round: number) => string;
}

async function prepare(server: BenchServer, runId: string, cases: readonly CaseName[]): Promise<Subject> {
  let n = 0;
  const tag = `${runId}-${server.framework}-${server.kind}`;
  const replayKey = `replay-${tag}`;
  const leastReplayKey = `least-replay-${tag}`;
  for (const [path, key] of [['/protected', replayKey], ['/least', leastReplayKey]] as const) {
    const primed = await post(server, path, key);
    if (primed !== 201) throw new Error(`${server.framework}/${server.kind}: priming the replay key of ${path} answered ${primed}`);
  }
  const shapes = { plain: request('/plain'), least: request('/least', () => `least-${tag}-${n++}`), 'least-replay': request('/least', leastReplayKey), engine: request('/engine', () => `engine-${tag}-${n++}`), layer: request('/layer', () => `layer-${tag}-${n++}`), fresh: request('/protected', () => `new-${tag}-${n++}`), replay: request('/protected', replayKey) };
  // Warm-up (not counted): JIT, sockets, the store's first pages.
  for (const [name, shape] of Object.entries(shapes)) if (cases.includes(name as CaseName)) await load(server.url, shape, 0.5, CONNECTIONS);
  const tallies = Object.fromEntries(CASES.map((name) => [name, newTally()])) as Record<CaseName, Tally>;
  return { server, tallies, shapes, holdKey: (round) => `hold-${tag}-${round}` };
}

async function runCase(subject: Subject, name: CaseName, round: number): Promise<void> {
  const { server, tallies } = subject;
  if (name !== 'duplicates') {
    await measure(server, subject.shapes[name], tallies[name]);
    return;
  }
  const key = subject.holdKey(round);
  const held = server.held();
  const first = post(server, '/hold', key);
  await held;
  await measure(server, request('/hold', key), tallies.duplicates);
  await post(server, '/release');
  const status = await first;
  if (status !== 201) throw new Error(`${server.framework}/${server.kind}: the held request answered ${status}`);
}

function statusNote(name: CaseName, tally: Tally): string {
  const unexpected = Object.entries(tally.statuses).filter(([status]) => status !== EXPECTED[name]);
  const parts = unexpected.map(([status, count]) => `${status}×${count}`);
  if (tally.errors) parts.push(`errors×${tally.errors}`);
  return parts.length ? `unexpected: ${parts.join(' ')}` : `all ${EXPECTED[name]}`;
}

function report(subject: Subject, cases: readonly CaseName[], reporter: Reporter): void {
  const { server, tallies } = subject;
  const base = tallies.plain.served > 0 ? opsOf(tallies.plain) : undefined;
  const baseCpu = tallies.plain.served > 0 ? cpuPerRequest(tallies.plain) : undefined;
  const rows: Row[] = cases.map((name) => {
    const tally = tallies[name];
    const cpu = cpuPerRequest(tally);
    const added = baseCpu === undefined || name === 'plain' ? '' : ` (${cpu - baseCpu >= 0 ? '+' : ''}${(cpu - baseCpu).toFixed(0)})`;
    return {
      label: LABELS[name],
      opsPerSec: opsOf(tally),
      p50Ms: median(tally.p50),
      p99Ms: median(tally.p99),
      ...(base !== undefined ? { ratio: opsOf(tally) / base } : {}),
      note: `server CPU ${cpu.toFixed(0)} µs/req${added}; ${statusNote(name, tally)}`,
    };
  });
  reporter.table(`${server.framework} — ${server.store}`, rows);
}

/** Where the CPU of a new key goes, rung by rung (only the rungs this run measured). */
function ladder(subjects: readonly Subject[], reporter: Reporter): void {
  const rungs = (['least', 'engine', 'layer', 'fresh'] as const).filter((name) => subjects.some((subject) => subject.tallies[name].served > 0));
  if (!rungs.some((name) => name === 'engine' || name === 'layer')) return;
  reporter.line('\nLadder: server CPU µs per new key above the unprotected handler, rung by rung (least adapter → + engine → + HTTP layer → the adapter)');
  reporter.line(`| framework | store | ${rungs.join(' | ')} |`);
  reporter.line(`|---|---|${rungs.map(() => '---:').join('|')}|`);
  for (const { server, tallies } of subjects) {
    if (!tallies.plain.served) continue;
    const plain = cpuPerRequest(tallies.plain);
    const cells = rungs.map((name) => (tallies[name].served ? `+${(cpuPerRequest(tallies[name]) - plain).toFixed(0)}` : ''));
    reporter.line(`| ${server.framework} | ${server.kind} | ${cells.join(' | ')} |`);
  }
}

function summary(subjects: readonly Subject[], floors: ReadonlyMap<BenchStoreKind, RequestFloor>, reporter: Reporter): void {
  reporter.line('\nSummary: ratio = protected ÷ unprotected ops/s of the same server in this run (goals: new key ≥ 0.85×, replay ≥ 1.00×); server CPU µs per request');
  reporter.line('ceiling = the ratio the floor alone leaves (plain CPU ÷ (plain CPU + floor), see bench/http/floor.ts); least = the least adapter\'s ratio, measured (its CPU beside)');
  reporter.line('| framework | store | new key | ceiling | least | replay | ceiling | least | CPU plain | CPU least | CPU new key | CPU least replay | CPU replay | CPU 409 |');
  reporter.line('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { server, tallies } of subjects) {
    const ratio = (name: CaseName) => (tallies[name].served && tallies.plain.served ? `${(opsOf(tallies[name]) / opsOf(tallies.plain)).toFixed(2)}x` : '');
    const cpu = (name: CaseName) => (tallies[name].served ? cpuPerRequest(tallies[name]).toFixed(0) : '');
    const floor = floors.get(server.kind);
    const plainCpu = tallies.plain.served ? cpuPerRequest(tallies.plain) : undefined;
    const bound = (addedUs: number | undefined) => (plainCpu === undefined || addedUs === undefined ? '' : `${ceiling(plainCpu, addedUs).toFixed(2)}x`);
    reporter.line(
      `| ${server.framework} | ${server.kind} | ${ratio('fresh')} | ${bound(floor?.newKeyUs)} | ${ratio('least')} | ${ratio('replay')} | ${bound(floor && floor.replayUs - floor.handlerUs)} | ${ratio('least-replay')} | ` +
        `${cpu('plain')} | ${cpu('least')} | ${cpu('fresh')} | ${cpu('least-replay')} | ${cpu('replay')} | ${cpu('duplicates')} |`,
    );
  }
}

/** The floor of every store in the run, measured before the servers start (so nothing else runs). */
async function floorsOf(kinds: readonly BenchStoreKind[], reporter: Reporter): Promise<Map<BenchStoreKind, RequestFloor>> {
  const floors = new Map<BenchStoreKind, RequestFloor>();
  for (const kind of kinds) {
    const floor = await measureFloor(kind);
    floors.set(kind, floor);
    reporter.line(
      `floor on ${kind}: new key ${floor.newKeyUs.toFixed(1)} µs CPU (fingerprint + claim + complete), replay ${floor.replayUs.toFixed(1)} µs (fingerprint + claim), handler alone ${floor.handlerUs.toFixed(1)} µs`,
    );
  }
  return floors;
}

/** Why a store cannot be measured now, or null. */
async function unavailable(kind: BenchStoreKind): Promise<string | null> {
  const port = { memory: 0, sqlite: 0, postgres: 5432, redis: 6379 }[kind];
  if (port === 0) return null;
  return probeTcp(port).then(
    () => null,
    (error: Error) => `${kind} server not reachable (${error.message})`,
  );
}

const suite: BenchSuite = {
  name: 'HTTP: Express, Fastify, Hono and Koa handlers with and without the idempotency adapter (autocannon)',
  async run(reporter) {
    const frameworks = list<BenchFramework>(process.env.BENCH_HTTP_FRAMEWORKS, FRAMEWORKS, FRAMEWORKS);
    const cases = list<CaseName>(process.env.BENCH_HTTP_CASES, CASES, DEFAULT_CASES);
    const kinds: BenchStoreKind[] = [];
    for (const kind of list<BenchStoreKind>(process.env.BENCH_HTTP_STORES, STORE_KINDS, ['memory', 'sqlite'])) {
      const reason = await unavailable(kind);
      if (reason) reporter.line(`${kind}: skipped — ${reason}`);
      else kinds.push(kind);
    }
    const runId = Date.now().toString(36);
    const floors = await floorsOf(kinds, reporter);
    const startLoad = loadavg().map((l) => l.toFixed(2)).join(' ');
    const servers = await Promise.all(frameworks.flatMap((framework) => kinds.map((kind) => startServer(framework, kind, process.env.BENCH_HTTP_CPU_PROF))));
    try {
      reporter.line(`${HANDLER_DESCRIPTION}.`);
      reporter.line(
        `autocannon, ${CONNECTIONS} connections on loopback; ${ROUNDS} interleaved rounds of ${SECONDS} s per case (after a 0.5 s warm-up per case); ` +
          `p50/p99 = median over the rounds; runtime from ${servers[0]?.runtime}; load average at start ${startLoad}`,
      );
      const subjects: Subject[] = [];
      for (const server of servers) subjects.push(await prepare(server, runId, cases));
      for (let round = 0; round < ROUNDS; round++) {
        for (const subject of subjects) {
          // Rotate the order each round, so no case always follows the same one.
          for (let i = 0; i < cases.length; i++) await runCase(subject, cases[(i + round) % cases.length]!, round);
        }
      }
      for (const subject of subjects) report(subject, cases, reporter);
      summary(subjects, floors, reporter);
      ladder(subjects, reporter);
      reporter.line(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

export default suite;
