/**
 * One source of truth: the design document quotes exactly what the runtime executes. The claim
 * shown for PostgreSQL is compared with the text a real `createPostgresStore` sends (recorded on
 * PGlite, in-process PostgreSQL, for both layouts); the Redis claim script with the one the store
 * EVALSHAs on the real server (by SHA-1). Refusals and example bodies are the adapters' own.
 */
import { createHash, randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROBLEM_TYPE_BASE, mysqlContract, postgresContract, PROBLEMS, REDIS_SCRIPTS } from '@idempotency-builder/runtime/contract';
import { createPartitionMaintenance, createPostgresStore, pgliteQueryable } from '@idempotency-builder/runtime/postgres';
import { createRedisStore, ioredisPort, type RedisPort } from '@idempotency-builder/runtime/redis';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import type { Block, DesignModel, Section } from '../src/design/model.js';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';
import { FIXTURES, fixture, GENERATED_AT } from './fixtures.js';

const sections = (all: readonly Section[]): Section[] => all.flatMap((s) => [s, ...sections(s.children)]);
const codeBlocks = (model: DesignModel, sectionId: string) =>
  (sections(model.sections).find((s) => s.id === sectionId)?.blocks ?? []).filter((b): b is Extract<Block, { kind: 'code' }> => b.kind === 'code');
/** A quoted statement without the comment lines the document puts above it and its final `;`. */
const statementOf = (code: string) => code.split('\n').filter((line) => !line.startsWith('-- ')).join('\n').replace(/;$/, '');

const design = (base: keyof typeof FIXTURES, extra: Record<string, unknown> = {}) =>
  buildDesign(answersSchema.parse({ ...FIXTURES[base], ...extra }), { generatedAt: GENERATED_AT });

describe('PostgreSQL: the document’s claim is the statement the runtime’s store sends', () => {
  // One in-process PostgreSQL for all cases (starting one is the slow part); each case starts
  // from an empty public schema, because the document names "public"."idempotency_store".
  let pglite: PGlite | undefined;
  afterAll(async () => pglite?.close());

  it.each([
    ['plain', 'express-postgres-stripe', 20_000],
    ['partitioned', 'express-postgres-stripe', 500_000],
    ['plain', 'fastapi-postgres-paypal', 5_000],
  ] as const)('%s layout (%s)', async (layout, base, keysPerDay) => {
    const model = design(base, { keysPerDay });
    const [claimBlock] = codeBlocks(model, 'claim');
    expect(claimBlock?.language).toBe('sql');
    const shown = statementOf(claimBlock!.code);

    // What a real store over the same table sends for a claim, recorded on the wire.
    pglite ??= new PGlite();
    await pglite.exec('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    const sent: string[] = [];
    const inner = pgliteQueryable(pglite);
    const db = { query: (text: string, values?: unknown[]) => (values === undefined ? inner.query(text) : (sent.push(text), inner.query(text, values))) };
    const store = createPostgresStore({ db, layout });
    await store.migrate();
    if (layout === 'partitioned') await createPartitionMaintenance({ db, retentionMs: 86_400_000 }).run();
    const result = await store.claim({ key: `k_${randomUUID()}`, scope: 'u', fingerprint: 'a'.repeat(64), owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true });
    expect(result.outcome).toBe('claimed');
    await store.close();

    expect(sent.at(-1)).toBe(shown);
    expect(shown).toBe(postgresContract({ layout }).statements.claim);
    // What the issue named: the store clock and the owner check, never now().
    if (layout === 'plain') {
      expect(shown).toContain('clock_timestamp()');
      expect(shown).toContain('owner_id IS NOT DISTINCT FROM $4::text');
      expect(shown).not.toMatch(/\bnow\(\)/);
    } else {
      // The partitioned claim is the server-side function in the migration (section 4.2).
      const ddl = model.artifacts.find((a) => a.path === 'db/idempotency_store.sql')!.content;
      expect(ddl).toContain(postgresContract({ layout }).migrationSql);
      expect(ddl).toContain('pg_advisory_xact_lock');
    }
    // Every statement of the queries file is the runtime's, verbatim.
    const queries = model.artifacts.find((a) => a.path === 'db/idempotency_queries.sql')!.content;
    for (const text of Object.values(postgresContract({ layout }).statements)) expect(queries).toContain(`${text.trim()};`);
  }, 90_000);

  it('quotes the runtime\'s own MySQL claim, and says the runtime runs it only for stores the runtime ships', () => {
    const mysql = design('spring-postgres', { stack: { language: 'java', framework: 'spring', database: 'mysql' } });
    const claimBlocks = codeBlocks(mysql, 'claim');
    expect(claimBlocks.map((b) => b.title ?? '').join('\n')).toContain("the runtime's MySQL store, as it executes it");
    const my = mysqlContract({ table: 'idempotency_store' });
    for (const name of ['claimUpsert', 'claimRead'] as const) expect(claimBlocks.map((b) => b.code).join('\n')).toContain(my.statements[name].text);
    const mongo = design('express-postgres-stripe', { stack: { language: 'typescript', framework: 'express', database: 'mongodb' } });
    expect(JSON.stringify(sections(mongo.sections).find((s) => s.id === 'claim')!.blocks)).toContain('Not run against a MongoDB server');
    const ts = design('express-postgres-stripe');
    const claim = sections(ts.sections).find((s) => s.id === 'claim')!;
    expect(JSON.stringify(claim.blocks)).toContain('executes exactly the statements quoted here');
    expect(JSON.stringify(claim.blocks)).not.toContain('implements this claim');
  });
});

const redisUp = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));

describe.skipIf(!redisUp)('Redis: the document’s claim script is the one the runtime’s store runs', () => {
  const io = redisUp ? new Redis({ port: 6379, host: '127.0.0.1' }) : undefined;
  const prefix = `builder-contract-${randomUUID().slice(0, 8)}:`;
  afterAll(async () => {
    if (!io) return;
    const keys = await io.keys(`${prefix}*`);
    if (keys.length > 0) await io.del(...keys);
    io.disconnect();
  });

  it.each(['fastify-redis-rabbitmq', 'go-redis'] as const)('%s', async (base) => {
    const model = design(base);
    const [claimBlock] = codeBlocks(model, 'claim');
    expect(claimBlock?.language).toBe('lua');
    // Code blocks drop trailing whitespace when rendered; the script's text is otherwise byte for byte.
    const source = REDIS_SCRIPTS.claim.source;
    expect(source.startsWith(claimBlock!.code) && source.slice(claimBlock!.code.length).trim() === '').toBe(true);
    const shownSha = createHash('sha1').update(claimBlock!.code + source.slice(claimBlock!.code.length)).digest('hex');

    // Record what the store sends: the claim goes out as EVALSHA <sha of the script it loaded>.
    const port = ioredisPort(io!);
    const shas: string[] = [];
    const recording: RedisPort = {
      send: (routingKey, commands) => {
        for (const command of commands) if (String(command[0]).toUpperCase().startsWith('EVAL')) shas.push(String(command[0]).toUpperCase() === 'EVALSHA' ? String(command[1]) : createHash('sha1').update(String(command[1])).digest('hex'));
        return port.send(routingKey, commands);
      },
      primaries: () => port.primaries(),
    };
    const store = createRedisStore({ client: recording, prefix });
    const result = await store.claim({ key: `k_${randomUUID()}`, scope: 'u', fingerprint: 'a'.repeat(64), owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true });
    expect(result.outcome).toBe('claimed');
    await store.close();
    expect(shas[0]).toBe(shownSha);
    expect(shownSha).toBe(REDIS_SCRIPTS.claim.sha1);
    // The claim never gives a PROCESSING record an expiry (the builder's old script did).
    expect(claimBlock!.code).not.toMatch(/redis\.call\('P?EXPIRE/);
    // The Lua artifacts are the runtime's scripts, one per operation.
    const lua = model.artifacts.filter((a) => a.path.startsWith('db/redis/'));
    expect(lua.map((a) => a.content.trimEnd()).sort()).toEqual(Object.values(REDIS_SCRIPTS).map((s) => s.source.trimEnd()).sort());
  });
});

describe('HTTP: the document and the generated TypeScript use the adapters’ problem answers', () => {
  it('shows the runtime’s 409 body and status table, including lease_lost as 409', () => {
    const model = design('express-postgres-stripe');
    const [example] = codeBlocks(model, 'fingerprinting').filter((b) => b.language === 'json');
    const body = JSON.parse(example!.code) as { type: string; status: number; code: string; title: string };
    expect(body).toEqual({ type: `${DEFAULT_PROBLEM_TYPE_BASE}fingerprint_mismatch`, title: PROBLEMS.fingerprint_mismatch.title, status: 409, code: 'fingerprint_mismatch' });
    const security = sections(model.sections).find((s) => s.id === 'security')!;
    const statusTable = security.blocks.find((b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table')!;
    const row = (code: string) => statusTable.rows.find((cells) => JSON.stringify(cells[0]).includes(`"${code}"`))!.map((cell) => JSON.stringify(cell));
    expect(row('lease_lost')[1]).toContain('"409"');
    expect(row('fingerprint_mismatch').slice(1, 3)).toEqual([expect.stringContaining('"409"'), expect.stringContaining('"422"')]);
    expect(row('store_unavailable')[1]).toContain('"503"');
    expect(statusTable.rows).toHaveLength(Object.keys(PROBLEMS).length);
  });

  it('generates no second error mapping: no http-problems.ts, the routes call the runtime’s', () => {
    for (const base of ['express-postgres-stripe', 'fastify-redis-rabbitmq'] as const) {
      const model = buildDesign(fixture(base), { generatedAt: GENERATED_AT });
      expect(model.artifacts.map((a) => a.path)).not.toContain('http-problems.ts');
      for (const artifact of model.artifacts) {
        expect(artifact.content, artifact.path).not.toContain('http-problems');
        expect(artifact.content, artifact.path).not.toContain('urn:idempotency:');
      }
      const protect = model.artifacts.find((a) => a.path === 'protect.ts');
      if (protect) expect(protect.content).toContain("import { problemAnswer, problemForError } from '@idempotency-builder/runtime/contract';");
    }
  });
});
