/**
 * The demo `npm start` runs: one action protected on the embedded SQLite store, hit with
 * concurrent duplicates, a reused key with other parameters, and a crashed worker's orphan —
 * printing how many times the action ran and why every other request got the answer it got.
 * Run: npx tsx examples/demo/sqlite-duplicates.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdempotency, fingerprintFields, IdempotencyError, METRICS, noopMetrics, type MetricsSink } from '@idempotency-builder/runtime';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';

const WHY: Record<string, string> = {
  ran: 'the first request for its key: the action ran and its result was stored',
  replayed: 'a duplicate after completion: the stored result came back, the action did not run',
  reclaimed: 'the crashed holder\'s lease was over: this retry took its claim over and ran the action',
  in_progress: 'the key was held by a live lease (the first request still running): refused with Retry-After (HTTP 409)',
  fingerprint_mismatch: 'the key reused with other parameters: refused, the original result stays private',
};

const dir = mkdtempSync(join(tmpdir(), 'idempotency-demo-'));
const store = createSqliteStore({ filename: join(dir, 'demo.db') });
const counted = new Map<string, number>();
const metrics: MetricsSink = { ...noopMetrics, increment: (name, _labels, by = 1) => void counted.set(name, (counted.get(name) ?? 0) + by) };
const idempotency = createIdempotency({ store, leaseMs: 300, ttlMs: 60_000, metrics });

let runs = 0;
let requests = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The protected action: a payment that takes 100 ms and must happen once per intent. */
const charge = async (intent: number, amount: number) => {
  runs++;
  await sleep(100);
  return { payment: `pay_${intent}`, amount };
};

/** Sends one payment request; answers with why it got the answer it got. */
async function pay(intent: number, amount = 4_999, options: { waitMs?: number } = {}): Promise<string> {
  requests++;
  const request = { key: `order-${intent}_pay`, scope: 'customer-1', fingerprint: fingerprintFields([amount, 'EUR', `merchant-${intent}`]) };
  try {
    let tookOver = false;
    const action = ({ reclaimed }: { reclaimed: boolean }) => {
      tookOver = reclaimed; // true when this run took over a crashed worker's claim
      return charge(intent, amount);
    };
    const { replayed } = await idempotency.run(request, action, options);
    return replayed ? 'replayed' : tookOver ? 'reclaimed' : 'ran';
  } catch (error) {
    if (error instanceof IdempotencyError) return error.code;
    throw error;
  }
}

async function wave(title: string, requests: Promise<string>[]): Promise<void> {
  const before = runs;
  const answers = await Promise.all(requests);
  console.log(`\n${title}\n  the action ran ${runs - before} ${runs - before === 1 ? 'time' : 'times'}`);
  const tally = new Map<string, number>();
  for (const answer of answers) tally.set(answer, (tally.get(answer) ?? 0) + 1);
  for (const [answer, count] of tally) console.log(`  ${String(count).padStart(3)} × ${answer.padEnd(21)} ${WHY[answer] ?? ''}`);
}

const intents = [1, 2, 3, 4, 5];
const fifty = () => intents.flatMap((intent) => Array.from({ length: 10 }, () => pay(intent)));
console.log(`Protecting a payment on SQLite (${join(dir, 'demo.db')}), lease 300 ms.`);

await wave('1. 50 concurrent requests: 5 payment intents × 10 duplicates, all at once', fifty());
await wave('2. the same 50 requests again, after the first ones completed', fifty());
await wave('3. order-1\'s key sent again with a different amount', [pay(1, 5_999)]);

// A worker that claims order-6 and dies mid-action: its action never returns and its heartbeat is
// off — what a killed process leaves behind. The lease, not the worker, decides when others may run.
const crashed = createIdempotency({ store, leaseMs: 300, ttlMs: 60_000, heartbeat: false });
requests++;
void crashed.run({ key: 'order-6_pay', scope: 'customer-1', fingerprint: fingerprintFields([4_999, 'EUR', 'merchant-6']) }, () => {
  runs++;
  return new Promise<never>(() => {});
});
await sleep(20);
await wave('4. order-6: a worker claimed it and crashed; a retry comes at once', [pay(6)]);
await wave('5. order-6 retried by a client that waits out the lease (waitMs)', [pay(6, 4_999, { waitMs: 2_000 })]);
console.log(`  orphan reclaims counted: ${counted.get(METRICS.orphanReclaims) ?? 0} (the retry took over the dead worker's claim at lockVersion ${(await store.get({ key: 'order-6_pay', scope: 'customer-1' }))!.lockVersion})`);

console.log(
  `\nIn all: ${requests} requests for 6 intents; the action ran ${runs} times — once per intent, ` +
    'plus once in the worker that crashed (a crash mid-action can repeat an action; it never runs two at once).',
);
await store.close();
rmSync(dir, { recursive: true, force: true });
