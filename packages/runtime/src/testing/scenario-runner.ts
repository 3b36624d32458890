/**
 * Runs one data-driven conformance scenario (conformance/scenarios.json) against a store. Free of
 * vitest so any harness can call it; a mismatch throws an Error naming the step.
 */
import type { StoredResponse } from '../core/record.js';
import type { IdempotencyRecord } from '../core/record.js';
import type { ClaimInput, ClaimResult, IdempotencyStore } from '../core/store-contract.js';
import {
  conformanceScenarios,
  type ClaimExpectation,
  type ConcurrentClaimExpectation,
  type ConformanceScenario,
  type ConformanceScenarioFile,
  type LockVersionExpectation,
  type RecordExpectation,
  type ScenarioResponse,
  type ScenarioStep,
} from '../contract/conformance-scenarios.js';

export interface ScenarioRunOptions {
  /** Lease for steps that name none, and added by `plusLease` sleeps. Default: the file's. */
  readonly leaseMs?: number;
  /** Caps a step's concurrency (a one-connection store cannot race 64 ways); counts adapt. */
  readonly maxConcurrency?: number;
  /** Prepended to every key so runs never share records. Default: a fresh unique prefix. */
  readonly keyPrefix?: string;
  /** The scenario file; default the shipped one. */
  readonly file?: ConformanceScenarioFile;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
let runCounter = 0;

/** The bytes a scenario response body stands for. */
export function scenarioBody(body: ScenarioResponse['body']): Uint8Array {
  if ('text' in body) return new TextEncoder().encode(body.text);
  const bytes = new Uint8Array(body.pattern);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
  return bytes;
}

/** A named scenario response as the store takes it. */
export function scenarioResponse(file: ConformanceScenarioFile, name: string): StoredResponse {
  const spec = file.responses[name];
  if (!spec) throw new Error(`scenario file names no response "${name}"`);
  return { statusCode: spec.statusCode, headers: spec.headers, encoding: spec.encoding, body: scenarioBody(spec.body) };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.from(a).equals(Buffer.from(b));

/**
 * Runs every step of `scenario` on `store` (a fresh, empty store), throwing on the first mismatch.
 * @example
 * for (const scenario of conformanceScenarios.scenarios) await runScenario(await createStore(), scenario);
 */
export async function runScenario(store: IdempotencyStore, scenario: ConformanceScenario, options: ScenarioRunOptions = {}): Promise<void> {
  const file = options.file ?? conformanceScenarios;
  const defaults = { ...file.defaults, leaseMs: options.leaseMs ?? file.defaults.leaseMs };
  const prefix = options.keyPrefix ?? `sc_${process.pid}_${Date.now().toString(36)}_${++runCounter}`;
  const tokens = new Map<string, number>();
  const fullKey = (key: string) => `${prefix}_${scenario.name}_${key}`;
  const fingerprint = (name: string) => {
    const hex = file.fingerprints[name];
    if (!hex) throw new Error(`scenario file names no fingerprint "${name}"`);
    return hex;
  };
  const token = (name: string | undefined) => {
    const value = name === undefined ? undefined : tokens.get(name);
    if (value === undefined) throw new Error(`no lockVersion remembered as "${name}"`);
    return value;
  };
  const fail = (step: ScenarioStep, index: string, message: string): never => {
    throw new Error(`scenario "${scenario.name}" step ${index} (${step.op}${step.key ? ` ${step.key}` : ''}): ${message}`);
  };
  const check = (step: ScenarioStep, index: string, what: string, actual: unknown, expected: unknown) => {
    if (actual !== expected) fail(step, index, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  };

  const checkVersion = (step: ScenarioStep, index: string, actual: number, expected: LockVersionExpectation) => {
    const plus = expected.plus ?? 0;
    if (expected.eq !== undefined) check(step, index, `lockVersion vs ${expected.eq}+${plus}`, actual, token(expected.eq) + plus);
    if (expected.gt !== undefined && !(actual > token(expected.gt) + plus)) fail(step, index, `lockVersion ${actual} is not > ${expected.gt}+${plus} (${token(expected.gt) + plus})`);
    if (expected.gte !== undefined && !(actual >= token(expected.gte) + plus)) fail(step, index, `lockVersion ${actual} is not >= ${expected.gte}+${plus}`);
  };

  const checkRecord = (step: ScenarioStep, index: string, record: IdempotencyRecord, expected: RecordExpectation, now?: number) => {
    if (expected.status !== undefined) check(step, index, 'status', record.status, expected.status);
    if (expected.fingerprint !== undefined) check(step, index, 'fingerprint', record.fingerprint, fingerprint(expected.fingerprint));
    if (expected.owner !== undefined) check(step, index, 'owner', record.owner, expected.owner);
    if (expected.lockVersion !== undefined) checkVersion(step, index, record.lockVersion, expected.lockVersion);
    if (expected.lockedUntil === null) check(step, index, 'lockedUntil', record.lockedUntil, null);
    if (expected.completed !== undefined) check(step, index, 'completed', record.completedAt !== null, expected.completed);
    if (expected.response === null) check(step, index, 'response', record.response, null);
    else if (expected.response !== undefined) {
      const want = scenarioResponse(file, expected.response);
      const got = record.response;
      if (!got) return fail(step, index, `response: expected "${expected.response}", got none`);
      check(step, index, 'response.statusCode', got.statusCode, want.statusCode);
      check(step, index, 'response.encoding', got.encoding, want.encoding);
      check(step, index, 'response.headers', JSON.stringify(sortKeys(got.headers)), JSON.stringify(sortKeys(want.headers)));
      if (!sameBytes(got.body, want.body)) fail(step, index, `response body differs from "${expected.response}" (${got.body.byteLength} vs ${want.body.byteLength} bytes)`);
    }
    if (expected.leaseLive !== undefined || expected.expired !== undefined) {
      if (now === undefined) fail(step, index, 'leaseLive/expired are only checked on an existing claim');
      if (expected.leaseLive !== undefined) check(step, index, 'leaseLive', record.lockedUntil !== null && record.lockedUntil > now!, expected.leaseLive);
      if (expected.expired !== undefined) check(step, index, 'expired', record.expiresAt <= now!, expected.expired);
    }
  };

  const checkClaim = (step: ScenarioStep, index: string, result: ClaimResult, expected: ClaimExpectation) => {
    if (expected.outcome !== undefined) check(step, index, 'outcome', result.outcome, expected.outcome);
    if (result.outcome === 'claimed') {
      if (expected.reclaimed !== undefined) check(step, index, 'reclaimed', result.reclaimed, expected.reclaimed);
      if (expected.replacedExpired !== undefined) check(step, index, 'replacedExpired', result.replacedExpired, expected.replacedExpired);
      if (expected.lockVersion !== undefined) checkVersion(step, index, result.lockVersion, expected.lockVersion);
    } else if (expected.record !== undefined) checkRecord(step, index, result.record, expected.record, result.now);
  };

  const claimInput = (step: ScenarioStep, key: string): ClaimInput => ({
    key: fullKey(key),
    scope: step.scope ?? defaults.scope,
    fingerprint: fingerprint(step.fingerprint ?? defaults.fingerprint),
    owner: step.owner !== undefined ? step.owner : defaults.owner,
    leaseMs: step.leaseMs ?? defaults.leaseMs,
    ttlMs: step.ttlMs ?? defaults.ttlMs,
    replaceExpired: step.replaceExpired ?? defaults.replaceExpired,
  });

  const concurrentClaim = async (step: ScenarioStep, index: string) => {
    const keys = step.keys ?? [step.key!];
    const n = Math.min(step.concurrency!, options.maxConcurrency ?? Infinity);
    const expected = step.expect as ConcurrentClaimExpectation;
    const all = await Promise.all(keys.flatMap((key) => Array.from({ length: n }, () => store.claim(claimInput(step, key)).then((r) => ({ key, r })))));
    for (const key of keys) {
      const mine = all.filter((x) => x.key === key).map((x) => x.r);
      const winners = mine.filter((r) => r.outcome === 'claimed');
      check(step, index, `claimed count for ${key}`, winners.length, expected.claimed);
      // With a capped concurrency the losers are whatever is left over.
      check(step, index, `existing count for ${key}`, mine.length - winners.length, n === step.concurrency ? expected.existing : n - expected.claimed);
      const winner = winners[0];
      if (winner && expected.winner) checkClaim(step, index, winner, expected.winner);
      if (winner && step.as && winner.outcome === 'claimed') tokens.set(step.as, winner.lockVersion);
      for (const r of mine) if (r.outcome === 'existing' && expected.others) checkRecord(step, index, r.record, expected.others, r.now);
    }
  };

  const runStep = async (step: ScenarioStep, index: string): Promise<void> => {
    const id = () => ({ key: fullKey(step.key!), scope: step.scope ?? defaults.scope });
    switch (step.op) {
      case 'claim': {
        if (step.concurrency !== undefined) return concurrentClaim(step, index);
        const result = await store.claim(claimInput(step, step.key!));
        checkClaim(step, index, result, step.expect as ClaimExpectation);
        if (step.as && result.outcome === 'claimed') tokens.set(step.as, result.lockVersion);
        return;
      }
      case 'complete':
      case 'fail': {
        const response = scenarioResponse(file, step.response!);
        const outcome = await store[step.op]({ ...id(), lockVersion: token(step.lockVersion), response, ttlMs: step.ttlMs ?? defaults.ttlMs });
        return check(step, index, 'result', outcome, step.expect);
      }
      case 'release':
        return check(step, index, 'result', await store.release({ ...id(), lockVersion: token(step.lockVersion) }), step.expect);
      case 'extend':
        return check(step, index, 'result', await store.extend({ ...id(), lockVersion: token(step.lockVersion), leaseMs: step.leaseMs ?? defaults.leaseMs }), step.expect);
      case 'get': {
        const record = await store.get(id());
        const expected = (step.expect as { record: RecordExpectation | null }).record;
        if (expected === null) return check(step, index, 'record', record, null);
        if (!record) return fail(step, index, 'expected a record, got none');
        return checkRecord(step, index, record, expected);
      }
      case 'forceRelease':
        return check(step, index, 'result', await store.forceRelease(id()), step.expect);
      case 'purgeExpired':
        return check(step, index, 'purged', await store.purgeExpired(step.batchSize!), step.expect);
      case 'listStuck': {
        const listed = await store.listStuck({ olderThanMs: step.olderThanMs ?? 0, limit: step.limit! });
        const expected = step.expect as { keys?: string[]; count?: number };
        for (const record of listed) check(step, index, `status of listed ${record.key}`, record.status, 'PROCESSING');
        if (expected.count !== undefined) check(step, index, 'count', listed.length, expected.count);
        if (expected.keys) check(step, index, 'keys', JSON.stringify(listed.map((r) => r.key).sort()), JSON.stringify(expected.keys.map(fullKey).sort()));
        return;
      }
      case 'sleep':
        return sleep((step.ms ?? 0) + (step.plusLease ? defaults.leaseMs : 0));
      case 'parallel':
        await Promise.all((step.steps ?? []).map((sub, i) => runStep(sub, `${index}.${i + 1}`)));
        return;
      default:
        return fail(step, index, `unknown op "${String((step as ScenarioStep).op)}"`);
    }
  };

  for (const [i, step] of scenario.steps.entries()) await runStep(step, String(i + 1));
}

function sortKeys(headers: Readonly<Record<string, string>> | null) {
  return headers === null ? null : Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
}
