/**
 * Property: under random interleavings of duplicate requests, crashes (actions that hang past
 * their lease), lease expiries, permanent and transient errors and retries, the engine
 *   1. never starts the action for a key while another execution of that key still holds a live
 *      lease or a live stored result, and
 *   2. never replays a result to a request with a different fingerprint.
 * Time is a manual clock on the memory store; the heartbeat is off so leases lapse only when the
 * test moves the clock (a "crash" is an action that stops making progress).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createIdempotency, fingerprintFields, IdempotencyError } from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { deferred, manualClock } from './helpers.js';

const LEASE = 1_000;
const TTL = 5_000;
const KEYS = ['k0', 'k1'];
const FPS = [fingerprintFields(['intent', 0]), fingerprintFields(['intent', 1])];

type Outcome = 'ok' | 'permanent' | 'transient';
type Command =
  | { type: 'request'; key: number; fp: number }
  | { type: 'settle'; pick: number; outcome: Outcome }
  | { type: 'advance'; ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('request' as const), key: fc.integer({ min: 0, max: 1 }), fp: fc.integer({ min: 0, max: 1 }) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('settle' as const), pick: fc.nat(), outcome: fc.constantFrom<Outcome>('ok', 'ok', 'permanent', 'transient') }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('advance' as const), ms: fc.constantFrom(100, 600, 1_100, 5_100) }) },
);

class Permanent extends Error {}

interface Execution {
  key: string;
  fp: number;
  id: number;
  /** Lease end on the store clock; a finished execution keeps its record until `expiresAt`. */
  leaseEnd: number;
  state: 'running' | 'released' | 'finished' | 'fenced';
  expiresAt: number;
  settle: ReturnType<typeof deferred<Outcome>>;
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('engine state machine (property-based)', () => {
  it('never runs an action twice while a record is live, never replays across fingerprints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40 }), async (commands) => {
        const clock = manualClock();
        const store = createMemoryStore({ clock: clock.now });
        const idem = createIdempotency({ store, leaseMs: LEASE, ttlMs: TTL, heartbeat: false, finishAttempts: 1, isPermanent: (e) => e instanceof Permanent });
        const executions: Execution[] = [];
        const pending: Promise<unknown>[] = [];
        const violations: string[] = [];

        const request = (keyIndex: number, fpIndex: number) => {
          const key = KEYS[keyIndex]!;
          const run = idem.run({ key, scope: 'u', fingerprint: FPS[fpIndex]! }, async () => {
            const now = clock.now();
            for (const other of executions.filter((e) => e.key === key)) {
              const leaseLive = other.state === 'running' && other.leaseEnd > now;
              const resultLive = other.state === 'finished' && other.expiresAt > now;
              if (leaseLive || resultLive) violations.push(`second execution of ${key} at ${now} while #${other.id} is ${other.state}`);
            }
            const execution: Execution = { key, fp: fpIndex, id: executions.length, leaseEnd: now + LEASE, state: 'running', expiresAt: Infinity, settle: deferred<Outcome>() };
            executions.push(execution);
            const outcome = await execution.settle.promise;
            if (outcome === 'permanent') throw new Permanent('declined');
            if (outcome === 'transient') throw new Error('timeout');
            return { fp: fpIndex, id: execution.id };
          });
          pending.push(
            run.then(
              ({ value, replayed }) => {
                if (replayed && value.fp !== fpIndex) violations.push(`replayed fp ${value.fp} to fp ${fpIndex}`);
              },
              (error: unknown) => {
                if (!(error instanceof IdempotencyError) && !(error instanceof Permanent) && !(error as Error).message?.includes('timeout')) {
                  violations.push(`unexpected error ${String(error)}`);
                }
              },
            ),
          );
        };

        for (const cmd of commands) {
          if (cmd.type === 'request') request(cmd.key, cmd.fp);
          else if (cmd.type === 'advance') clock.advance(cmd.ms);
          else {
            const running = executions.filter((e) => e.state === 'running');
            const target = running[cmd.pick % Math.max(1, running.length)];
            if (target) {
              // Settle, then learn from the store whether this holder's write applied.
              target.settle.resolve(cmd.outcome);
              await flush();
              const record = await store.get({ key: target.key, scope: 'u' });
              const ownsRecord = record !== null && record.status !== 'PROCESSING' && record.completedAt === clock.now();
              if (cmd.outcome === 'transient') target.state = 'released';
              else if (ownsRecord) {
                target.state = 'finished';
                target.expiresAt = record.expiresAt;
              } else target.state = 'fenced';
            }
          }
          await flush();
        }
        for (const e of executions) e.settle.resolve('ok');
        await Promise.all(pending);
        expect(violations).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
