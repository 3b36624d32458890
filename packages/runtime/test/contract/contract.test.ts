/**
 * The contract subpath: its values are the ones the runtime itself uses (statements the store
 * sends, the adapters' problem answers), and the shared scenario runner fails a store that breaks
 * the contract.
 */
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import {
  conformanceScenarios,
  CONTRACT_STORES,
  DEFAULT_PROBLEM_TYPE_BASE,
  DEFAULT_STORED_STATUSES,
  ERROR_CODES,
  PROBLEMS,
  postgresContract,
  problemAnswer,
  problemForError,
  REDIS_SCRIPTS,
  sqliteContract,
  type ScenarioStep,
} from '../../src/contract/index.js';
import { createIdempotency, FingerprintMismatchError, InProgressError, LeaseLostError, StoreUnavailableError } from '../../src/index.js';
import { resolveHttpOptions } from '../../src/adapters/http/options.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPostgresStore, pgliteQueryable } from '../../src/stores/postgres/index.js';
import type { IdempotencyStore } from '../../src/core/store-contract.js';
import { runScenario } from '../../src/testing/index.js';
import { createHash } from 'node:crypto';

describe('contract values are the runtime\'s own', () => {
  it('PostgreSQL: every statement the store sends is one of the contract\'s, text for text', async () => {
    const pglite = new PGlite();
    const sent: string[] = [];
    const inner = pgliteQueryable(pglite);
    const db = { query: (text: string, values?: unknown[]) => (values === undefined ? inner.query(text) : (sent.push(text), inner.query(text, values))) };
    const store = createPostgresStore({ db, table: 'contract_probe' });
    await store.migrate();
    const base = { key: 'k1', scope: 'u', fingerprint: 'a'.repeat(64), owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
    const claim = await store.claim(base);
    expect(claim.outcome).toBe('claimed');
    const lockVersion = claim.outcome === 'claimed' ? claim.lockVersion : 0;
    await store.extend({ key: 'k1', scope: 'u', lockVersion, leaseMs: 30_000 });
    await store.complete({ key: 'k1', scope: 'u', lockVersion, ttlMs: 1000, response: { statusCode: 200, headers: null, body: new Uint8Array([1]), encoding: 'bytes' } });
    await store.get({ key: 'k1', scope: 'u' });
    await store.purgeExpired(10);
    await store.listStuck({ olderThanMs: 0, limit: 5 });
    await store.forceRelease({ key: 'k1', scope: 'u' });
    await store.close();
    await pglite.close();
    const pg = postgresContract({ table: 'contract_probe' });
    const byText = new Map(Object.entries(pg.statements).map(([name, text]) => [text, name]));
    expect(sent.map((text) => byText.get(text))).toEqual(['claim', 'extend', 'finish', 'get', 'purgeExpired', 'listStuck', 'forceRelease']);
    expect(pg.statements.claim).toContain('clock_timestamp()');
    expect(pg.statements.claim).toContain('owner_id IS NOT DISTINCT FROM $4::text');
    for (const [name, params] of Object.entries(pg.params)) {
      const used = new Set([...(pg.statements[name as keyof typeof pg.statements].matchAll(/\$(\d+)/g))].map((m) => Number(m[1])));
      expect(used.size, name).toBe(params.length);
    }
    expect(postgresContract({ layout: 'partitioned' }).statements.claim).toContain('"public"."idempotency_store_claim"(');
    expect(postgresContract().migrationSql).toMatch(/^BEGIN;/);
  }, 60_000);

  it('SQLite and Redis: schema, statements and scripts are exported with their hashes', () => {
    expect(sqliteContract('t1').schemaSql).toContain('CREATE TABLE IF NOT EXISTS "t1"');
    expect(sqliteContract('t1').statements.claimUpsert).toContain('@replaceExpired');
    for (const script of Object.values(REDIS_SCRIPTS)) {
      expect(createHash('sha1').update(script.source).digest('hex')).toBe(script.sha1);
    }
    // The claim never gives a PROCESSING record an expiry: only the lease decides its end.
    expect(REDIS_SCRIPTS.claim.source).not.toMatch(/redis\.call\('P?EXPIRE/);
    expect(REDIS_SCRIPTS.complete.source).toMatch(/redis\.call\('PEXPIREAT'/);
    expect(CONTRACT_STORES).toEqual(['postgresql', 'sqlite', 'redis', 'mysql']);
  });

  it('HTTP: the problem table, the default type base and the example bodies are the adapters\' answers', () => {
    const engine = createIdempotency({ store: createMemoryStore() });
    expect(resolveHttpOptions({ idempotency: engine, scope: 'global' }).problemTypeBase).toBe(DEFAULT_PROBLEM_TYPE_BASE);
    expect(problemAnswer('lease_lost').status).toBe(409);
    expect(problemAnswer('fingerprint_mismatch', { profile: 'ietf' }).status).toBe(422);
    expect(problemAnswer('in_progress', { retryAfterMs: 1500 })).toMatchObject({
      status: 409,
      headers: { 'content-type': 'application/problem+json', 'retry-after': '2' },
      body: { type: `${DEFAULT_PROBLEM_TYPE_BASE}in_progress`, code: 'in_progress', status: 409, title: PROBLEMS.in_progress.title },
    });
    for (const code of ERROR_CODES) expect(PROBLEMS[code], code).toBeDefined();
    expect(DEFAULT_STORED_STATUSES).toContain(201);
    expect(DEFAULT_STORED_STATUSES).toContain(422);
    expect(DEFAULT_STORED_STATUSES).not.toContain(409);
    expect(DEFAULT_STORED_STATUSES.some((s) => s >= 500)).toBe(false);
  });

  it('problemForError answers engine refusals as the HTTP layer does', () => {
    expect(problemForError(new InProgressError(2500))).toMatchObject({ status: 409, headers: { 'retry-after': '3' }, body: { code: 'in_progress' } });
    expect(problemForError(new LeaseLostError())).toMatchObject({ status: 409, headers: { 'retry-after': '1' }, body: { code: 'lease_lost' } });
    expect(problemForError(new StoreUnavailableError('claim', new Error('down')))).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
    expect(problemForError(new FingerprintMismatchError(), { profile: 'ietf' }).status).toBe(422);
    expect(problemForError(new FingerprintMismatchError()).body.type).toBe(`${DEFAULT_PROBLEM_TYPE_BASE}fingerprint_mismatch`);
  });
});

describe('conformance scenario file', () => {
  const ops = new Set(['claim', 'complete', 'fail', 'release', 'extend', 'get', 'forceRelease', 'listStuck', 'purgeExpired', 'sleep', 'parallel']);
  const flat = (steps: readonly ScenarioStep[]): ScenarioStep[] => steps.flatMap((s) => [s, ...flat(s.steps ?? [])]);

  it('names unique scenarios, known ops, fingerprints and responses', () => {
    const names = conformanceScenarios.scenarios.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(20);
    for (const scenario of conformanceScenarios.scenarios) {
      for (const step of flat(scenario.steps)) {
        expect(ops.has(step.op), `${scenario.name}: ${step.op}`).toBe(true);
        if (step.fingerprint) expect(conformanceScenarios.fingerprints[step.fingerprint]).toMatch(/^[0-9a-f]{64}$/);
        if (step.response) expect(conformanceScenarios.responses[step.response], `${scenario.name}: ${step.response}`).toBeDefined();
      }
    }
  });

  const scenario = (name: string) => conformanceScenarios.scenarios.find((s) => s.name === name)!;

  it('passes the memory store and fails a store that breaks the contract', async () => {
    await expect(runScenario(createMemoryStore(), scenario('orphan-takeover'))).resolves.toBeUndefined();
    // A store that never takes over an orphan: the takeover scenario must catch it.
    const noReclaim = (inner: IdempotencyStore): IdempotencyStore => ({
      ...inner,
      claim: async (input) => {
        const existing = await inner.get(input);
        if (existing?.status === 'PROCESSING') return { outcome: 'existing', record: existing, now: Date.now() };
        return inner.claim(input);
      },
    });
    const broken = createMemoryStore();
    await expect(runScenario(noReclaim(broken), scenario('orphan-takeover'))).rejects.toThrow(/claimed count/);
    // A store whose complete ignores the fencing token: the stale holder's write must be lost.
    const unfenced = createMemoryStore();
    const sloppy: IdempotencyStore = { ...unfenced, complete: async (input) => {
      const current = await unfenced.get(input);
      return unfenced.complete({ ...input, lockVersion: current?.lockVersion ?? input.lockVersion });
    } };
    await expect(runScenario(sloppy, scenario('stale-holder-fenced'))).rejects.toThrow(/step 4 \(complete k\): result: expected "lost", got "applied"/);
  });
});
