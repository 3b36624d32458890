/** The language-neutral store conformance scenarios (conformance/scenarios.json) and their types. */
import scenarios from '../../conformance/scenarios.json' with { type: 'json' };

/** A remembered lockVersion compared with `eq`/`gt`/`gte`, plus an optional offset. */
export interface LockVersionExpectation {
  readonly eq?: string;
  readonly gt?: string;
  readonly gte?: string;
  readonly plus?: number;
}

/** Checks on one record; every field is optional. `leaseLive`/`expired` only on an existing claim. */
export interface RecordExpectation {
  readonly status?: 'PROCESSING' | 'COMPLETED' | 'FAILED';
  /** A name in `fingerprints`. */
  readonly fingerprint?: string;
  readonly owner?: string | null;
  readonly lockVersion?: LockVersionExpectation;
  readonly lockedUntil?: null;
  /** A name in `responses`, or null for "no response stored". */
  readonly response?: string | null;
  readonly completed?: boolean;
  readonly leaseLive?: boolean;
  readonly expired?: boolean;
}

export interface ClaimExpectation {
  readonly outcome?: 'claimed' | 'existing';
  readonly reclaimed?: boolean;
  readonly replacedExpired?: boolean;
  readonly lockVersion?: LockVersionExpectation;
  readonly record?: RecordExpectation;
}

export interface ConcurrentClaimExpectation {
  readonly claimed: number;
  readonly existing: number;
  readonly winner?: ClaimExpectation;
  readonly others?: RecordExpectation;
}

export type ScenarioOp =
  | 'claim' | 'complete' | 'fail' | 'release' | 'extend' | 'get'
  | 'forceRelease' | 'listStuck' | 'purgeExpired' | 'sleep' | 'parallel';

/** One step. Which fields apply depends on `op` (conformance/README.md has the table). */
export interface ScenarioStep {
  readonly op: ScenarioOp;
  readonly key?: string;
  readonly keys?: readonly string[];
  readonly scope?: string;
  readonly owner?: string | null;
  readonly fingerprint?: string;
  readonly leaseMs?: number;
  readonly ttlMs?: number;
  readonly replaceExpired?: boolean;
  readonly concurrency?: number;
  /** Remember this claim's lockVersion (a concurrent claim: the winner's) under this name. */
  readonly as?: string;
  /** The name a lockVersion was remembered under. */
  readonly lockVersion?: string;
  /** A name in `responses`. */
  readonly response?: string;
  readonly batchSize?: number;
  readonly olderThanMs?: number;
  readonly limit?: number;
  readonly ms?: number;
  readonly plusLease?: boolean;
  readonly steps?: readonly ScenarioStep[];
  readonly expect?: unknown;
}

export interface ConformanceScenario {
  readonly name: string;
  readonly description: string;
  readonly steps: readonly ScenarioStep[];
}

/** A response as the scenarios write it: `body` is `{pattern: n}` (byte i = i % 256) or `{text}`. */
export interface ScenarioResponse {
  readonly statusCode: number | null;
  readonly headers: Readonly<Record<string, string>> | null;
  readonly encoding: string;
  readonly body: { readonly pattern: number } | { readonly text: string };
}

export interface ConformanceScenarioFile {
  readonly version: number;
  readonly defaults: {
    readonly scope: string;
    readonly owner: string | null;
    readonly fingerprint: string;
    readonly leaseMs: number;
    readonly ttlMs: number;
    readonly replaceExpired: boolean;
  };
  readonly fingerprints: Readonly<Record<string, string>>;
  readonly responses: Readonly<Record<string, ScenarioResponse>>;
  readonly scenarios: readonly ConformanceScenario[];
}

/**
 * The shared scenario list every store implementation runs (TypeScript, and the generated Go,
 * Python and Java stores), exactly as shipped in `conformance/scenarios.json`.
 * @example
 * import { conformanceScenarios } from '@idempotency-builder/runtime/contract';
 * for (const s of conformanceScenarios.scenarios) console.log(s.name, s.steps.length);
 */
export const conformanceScenarios: ConformanceScenarioFile = scenarios as ConformanceScenarioFile;
