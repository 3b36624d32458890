/**
 * Generated TypeScript test suite (vitest or jest): the spec's test scenarios against the real
 * runtime on its in-memory store with a controllable clock — runnable without any server.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { sampleBodies } from '../../design/plan/samples.js';
import { sagaFactoryName } from './saga-file.js';

/** The saga scenario on the generated saga and the runtime's memory store. */
function sagaTest(a: ActionPlan): string {
  const steps = a.saga?.steps ?? [];
  const second = steps[1]?.name ?? '';
  const entries = steps
    .map((step) =>
      step.name === second
        ? `      ${JSON.stringify(step.name)}: { run: async () => { ran.push(${JSON.stringify(step.name)}); if (failNext) { failNext = false; throw new Error('provider timeout'); } return 'done'; } },`
        : `      ${JSON.stringify(step.name)}: { run: async () => { ran.push(${JSON.stringify(step.name)}); return 'done'; } },`,
    )
    .join('\n');
  const expected = [...steps.map((s) => s.name).slice(0, 2), ...steps.map((s) => s.name).slice(1)];
  return `
  it('Saga step 2 fails, retry the saga: resumes from step 2, does not repeat step 1', async () => {
    const clock = { now: Date.parse('2025-06-01T10:00:00Z') };
    const engine = createIdempotency({ store: createMemoryStore({ clock: () => clock.now }), leaseMs: 30_000, ttlMs: 86_400_000, heartbeat: false, isPermanent: (e) => e instanceof PermanentError });
    const ran: string[] = [];
    let failNext = true; // step 2 fails once, transiently (a timeout): nothing is rolled back
    const saga = ${sagaFactoryName(a)}({
${entries}
    }, engine);
    const request = { key: \`${a.action.name}_\${randomUUID()}\`, scope: 'usr-1', fingerprint: fingerprint(${JSON.stringify(a.action.name)}, BODY) };
    await expect(saga.run(request, BODY)).rejects.toThrow('provider timeout');
    const outcome = await saga.run(request, BODY);
    expect(outcome.state).toBe('COMPLETED');
    expect(ran).toEqual(${JSON.stringify(expected)});
    expect((await saga.status(request.key, request.scope))?.state).toBe('COMPLETED');
  });
`;
}

function subject(plan: Plan): ActionPlan {
  return plan.actions.find((a) => a.action.kind === 'http' && a.action.keySource !== 'derived') ?? (plan.actions[0] as ActionPlan);
}

/**
 * The test file; it imports the generated modules beside it.
 * @example testFile(plan, 'vitest').includes('Concurrent requests with same key')
 */
export function testFile(plan: Plan, framework: 'vitest' | 'jest'): string {
  const target = subject(plan);
  const name = target.action.name;
  const { same, different } = sampleBodies(target.action);
  const saga = plan.actions.find((a) => a.saga !== undefined);
  const importLine = framework === 'jest' ? "import { describe, expect, it } from '@jest/globals';" : "import { describe, expect, it } from 'vitest';";
  return `// Idempotency test scenarios (design document, section 11) for \`${name}\`, on the runtime's
// in-memory store with a controllable clock. Replace the counting handler with your real action
// (or a fake of its side effect) and keep the assertions: they are the invariants.
import { randomUUID } from 'node:crypto';
${importLine}
import { createIdempotency, IdempotencyError } from '@idempotency-builder/runtime';
import { problemForError } from '@idempotency-builder/runtime/contract';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { fingerprint } from './fingerprints.js';
import { PermanentError, POLICIES } from './idempotency.js';
${saga ? `import { ${sagaFactoryName(saga)} } from './sagas.js';\n` : ''}
const ACTION = ${JSON.stringify(name)} as const;
const { leaseMs, ttlMs } = POLICIES[ACTION];
const BODY = ${JSON.stringify(same)};
const OTHER_BODY = ${JSON.stringify(different)};

function setup() {
  const clock = { now: Date.parse('2025-06-01T10:00:00Z') };
  const store = createMemoryStore({ clock: () => clock.now });
  const engine = createIdempotency({ store, leaseMs, ttlMs, heartbeat: false, isPermanent: (e) => e instanceof PermanentError });
  let runs = 0;
  const call = (key: string, body: Record<string, unknown>, scope = 'usr-1') =>
    engine.run(
      { key: \`\${ACTION}_\${key}\`, scope, fingerprint: fingerprint(ACTION, body) },
      async () => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { status: 201, body: { id: \`res-\${runs}\`, scope } };
      },
    );
  return { clock, store, call, runs: () => runs };
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 201;
  } catch (error) {
    if (error instanceof IdempotencyError) return problemForError(error).status;
    throw error;
  }
}

describe(\`\${ACTION} idempotency\`, () => {
  it('Same key, same body, first request: the action executes', async () => {
    const t = setup();
    const result = await t.call(randomUUID(), BODY);
    expect(result.replayed).toBe(false);
    expect(t.runs()).toBe(1);
  });

  it('Same key, same body, second request: stored response replayed, no re-execution', async () => {
    const t = setup();
    const key = randomUUID();
    const first = await t.call(key, BODY);
    const second = await t.call(key, BODY);
    expect(second.replayed).toBe(true);
    expect(second.value).toEqual(first.value);
    expect(t.runs()).toBe(1);
  });

  it('Same key, different body: 409 fingerprint mismatch, nothing runs', async () => {
    const t = setup();
    const key = randomUUID();
    await t.call(key, BODY);
    await expect(t.call(key, OTHER_BODY)).rejects.toMatchObject({ code: 'fingerprint_mismatch' });
    expect(await statusOf(t.call(key, OTHER_BODY))).toBe(409);
    expect(t.runs()).toBe(1);
  });

  it('Concurrent requests with same key: exactly one executes, the others get 409 or the stored response', async () => {
    const t = setup();
    const key = randomUUID();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => statusOf(t.call(key, BODY))));
    expect(t.runs()).toBe(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
  });

  it('Key from a different user: never the other user’s response', async () => {
    const t = setup();
    const key = randomUUID();
    const mine = await t.call(key, BODY, 'usr-1');
    const theirs = await t.call(key, BODY, 'usr-2');
    // Keys are scoped per user (composite primary key): usr-2's request is its own, new request.
    expect(theirs.replayed).toBe(false);
    expect(theirs.value).not.toEqual(mine.value);
  });

  it('Request after the key expired: treated as a new request', async () => {
    const t = setup();
    const key = randomUUID();
    await t.call(key, BODY);
    t.clock.now += ttlMs + 1;
    const again = await t.call(key, BODY);
    expect(again.replayed).toBe(false);
    expect(t.runs()).toBe(2);
  });

  it('Server crash mid-processing, then retry: lock times out, the retry succeeds', async () => {
    const t = setup();
    const key = randomUUID();
    // A worker claimed the key and died before completing.
    await t.store.claim({
      key: \`\${ACTION}_\${key}\`, scope: 'usr-1', fingerprint: fingerprint(ACTION, BODY),
      owner: null, leaseMs, ttlMs, replaceExpired: true,
    });
    expect(await statusOf(t.call(key, BODY))).toBe(409); // still within the lease
    t.clock.now += leaseMs + 1;
    const retry = await t.call(key, BODY);
    expect(retry.replayed).toBe(false);
    expect(t.runs()).toBe(1);
  });
${saga ? sagaTest(saga) : ''}});
`;
}
