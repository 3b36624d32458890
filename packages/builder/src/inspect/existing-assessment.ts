/**
 * What the repository's own deduplication is worth: each finding of existing-protection.ts (plus
 * provider keys already passed and handlers that read an idempotency key) gets what it protects
 * and which race remains, judged with every unique constraint of the project in view.
 */
import { RUNTIME_PROTECTION } from './cost.js';
import type { ProtectionScan, ReadThenCheck, UniqueColumn } from './existing-protection.js';
import type { EndpointFinding, ExistingProtectionFinding, PaymentCallFinding } from './types.js';

/** How a protection note says idempotency middleware on the route does it, rather than the handler (ts-route-registration.ts). */
export const MIDDLEWARE_PROTECTION = 'middleware ';

/** A column in code style; a described key (`ProcessedMail’s key`) as words. */
const tick = (column: string): string => (/^\w+$/.test(column) ? `\`${column}\`` : column);
const norm = (column: string): string => column.toLowerCase().replace(/[_"'`]/g, '');

const UNIQUE_RACE = 'only what is written in the same transaction as that insert is protected: work done before the insert (an e-mail, a provider call, a message) or in another transaction still runs twice, and the violation must be answered as “duplicate”, not surfaced as an error';

const LOCK_TEXT = {
  nx: {
    protects: 'an atomic claim (SET … NX): only the first caller proceeds while the key lives',
    race: 'no completion record and no stored response: a crash leaves the key claimed until its TTL (the retry is refused), a TTL shorter than the work lets a second caller in while the first still runs, and a duplicate after the TTL runs again',
  },
  advisory: {
    protects: 'a PostgreSQL advisory lock: concurrent callers of one lock id run one at a time',
    race: 'a lock serialises, it does not remember: the second caller runs after the first releases it unless it also checks for a completed result',
  },
  shedlock: {
    protects: 'ShedLock: one instance at a time runs the scheduled method, the others skip that run',
    race: 'a run that outlasts lockAtMostFor, or instances whose clocks differ by more than lockAtLeastFor and the run’s length, can run one slot twice; a run that fails half-way is not resumed — the next slot starts again',
  },
  'unique-job': {
    protects: 'a unique-job lock (sidekiq-unique-jobs / celery-once): a second job with the same arguments is not enqueued or not run while the first holds the lock',
    race: 'the lock covers one queue and expires: two jobs with different arguments for one intent, or one enqueued after the lock is gone, both run',
  },
} as const;

function uniqueFor(column: string | undefined, uniques: readonly UniqueColumn[]): UniqueColumn | undefined {
  return column ? uniques.find((u) => norm(u.column) === norm(column)) : undefined;
}

function checkFinding(check: ReadThenCheck, uniques: readonly UniqueColumn[]): ExistingProtectionFinding {
  const column = check.column ?? `${check.model ?? 'the table'}’s key`;
  const unique = uniqueFor(check.column, uniques);
  const where = unique ? `the unique constraint on \`${unique.column}\` (${unique.location})` : undefined;
  if (check.combined) {
    return {
      kind: 'read-then-check', location: check.location, evidence: check.evidence,
      protects: `get-or-create by ${tick(column)}: a duplicate that arrives after the first gets the existing row`,
      race: where
        ? `${where} makes the loser of a concurrent pair get the existing row (created = False); work done before the call still runs twice`
        : `no unique constraint on ${tick(column)} was found: two concurrent calls can both create a row — add one`,
    };
  }
  const lock = check.rowLock ? ' A row lock (select_for_update / FOR UPDATE) locks nothing when the row does not exist yet, so it does not stop two first-time duplicates.' : '';
  const tx = check.transaction;
  let race: string;
  if (check.elsewhere) {
    race = `the marker is written elsewhere (${check.insertLocation}), after the work: every duplicate that arrives before that write — a concurrent delivery, a second poll while the first run is still going — passes the check and runs again${unique ? `; ${where} then refuses only the second marker` : ''}.${lock}`;
  } else if (!unique) {
    race = `two concurrent duplicates both pass the check (neither sees the other’s row yet) and both ${check.workBeforeInsert ? 'do the work and insert' : 'insert'} (${check.insertLocation}): nothing in the database refuses the second — no unique constraint on ${tick(column)} was found${tx ? ` (the transaction at ${tx} does not help: under READ COMMITTED neither sees the other’s uncommitted row)` : ''}. Insert first under a unique constraint and treat the violation as “duplicate”.${lock}`;
  } else if (check.workBeforeInsert && tx) {
    race = `two concurrent duplicates both pass the check and both do the work before the insert (${check.insertLocation}); ${where} refuses the second insert and its transaction (${tx}) rolls back its database writes — but not what it did outside the database (messages, e-mails, provider calls).${lock}`;
  } else if (tx) {
    race = `${where} refuses the second insert (${check.insertLocation}), and inside one transaction (${tx}) the marker and the work commit together, so a crash leaves neither — sound, provided the violation is answered as a duplicate (otherwise the handler throws and is retried until its retries run out).${lock}`;
  } else if (check.workBeforeInsert) {
    race = `two concurrent duplicates both pass the check and both do the work between the check and the insert (${check.insertLocation}); ${where} then refuses the second insert — after its work has run. Insert the marker first, in the same transaction as the work.${lock}`;
  } else {
    race = `${where} refuses the second insert (${check.insertLocation}), so only one duplicate proceeds — provided the violation is caught and answered as a duplicate; a crash after the insert and before the work completes leaves the key marked done without its work (no lease, no retry).${lock}`;
  }
  return {
    kind: 'read-then-check', location: check.location, evidence: check.evidence,
    protects: `a duplicate that arrives after the first has finished (a sequential retry, a late redelivery) is skipped — lookup by ${tick(column)}, then insert at ${check.insertLocation}`,
    race,
  };
}

function providerKey(call: PaymentCallFinding): ExistingProtectionFinding | undefined {
  if (!call.passesIdempotencyKey) return undefined;
  return {
    kind: 'provider-key', location: call.location, evidence: `${call.call}${call.keyExpression ? ` with key ${call.keyExpression}` : ''}`,
    protects: `${call.provider} answers a repeated call with the same key with the first result instead of moving money twice`,
    race: call.keyIssue
      ? `the key is not sound: ${call.keyIssue}`
      : 'local effects around the call (rows, e-mails, messages) are not covered by the provider’s key: a retry after the provider succeeded but before the local write repeats them unless the local key guards the handler',
  };
}

function handlerKey(endpoint: EndpointFinding): ExistingProtectionFinding | undefined {
  if (!endpoint.protection) return undefined;
  const location = /\(([^()]+:\d+)\)$/.exec(endpoint.protection)?.[1] ?? endpoint.location;
  const own = endpoint.protection.startsWith(RUNTIME_PROTECTION);
  const named = endpoint.protection.replace(/\s*\([^()]*\)$/, '');
  // Idempotency middleware on the route (ts-route-registration.ts), not code in the handler.
  const middleware = named.startsWith(MIDDLEWARE_PROTECTION) ? named.slice(MIDDLEWARE_PROTECTION.length) : undefined;
  return {
    kind: 'idempotency-key', location,
    evidence: own ? `${endpoint.method} ${endpoint.route}: ${RUNTIME_PROTECTION}` : middleware ? `${endpoint.method} ${endpoint.route}: the route runs the middleware “${middleware}”` : `${endpoint.method} ${endpoint.route}: the handler mentions “${named}”`,
    protects: own ? 'the route already runs the idempotency-builder runtime: its claim is one atomic insert under a unique key, with a lease' : middleware ? 'the route runs idempotency middleware of its own' : 'the handler reads or stores an idempotency key of its own',
    race: own ? 'none from the claim itself; the design below describes what it covers' : `not assessed from the code: if the key is checked by a read before a write, two concurrent requests with one key both pass — read the ${middleware ? 'middleware' : 'handler'}`,
  };
}

/**
 * Every existing protection of the project, assessed, one per location.
 * @example assessExistingProtection(scans, inspection.paymentCalls, inspection.endpoints).map((f) => `${f.kind} ${f.location}`)
 */
export function assessExistingProtection(scans: readonly ProtectionScan[], paymentCalls: readonly PaymentCallFinding[], endpoints: readonly EndpointFinding[]): ExistingProtectionFinding[] {
  const uniques = scans.flatMap((s) => s.uniqueColumns);
  const out: ExistingProtectionFinding[] = [];
  const seenTables = new Set<string>();
  for (const scan of scans) {
    out.push(...scan.checks.map((check) => checkFinding(check, uniques)));
    for (const unique of scan.uniqueColumns) {
      out.push({ kind: 'unique-constraint', location: unique.location, evidence: unique.evidence, protects: `the database refuses a second row with the same \`${unique.column}\``, race: UNIQUE_RACE });
    }
    for (const table of scan.tables) {
      // One table declared twice (a migration and its entity) is one finding.
      if (seenTables.has(norm(table.name))) continue;
      seenTables.add(norm(table.name));
      const keyed = uniques.some((u) => u.location.split(':')[0] === table.location.split(':')[0]);
      out.push({
        kind: 'processed-events', location: table.location, evidence: table.evidence,
        protects: `a table of handled events or keys (\`${table.name}\`)`,
        race: keyed
          ? 'it protects only if the marker is inserted before the work or in the same transaction as it; see the unique constraint and the checks listed with it'
          : 'no unique constraint on its key was found beside it: two concurrent deliveries can both record the event and both run',
      });
    }
    for (const lock of scan.locks) out.push({ kind: 'lock', location: lock.location, evidence: lock.evidence, ...LOCK_TEXT[lock.what] });
  }
  out.push(...paymentCalls.flatMap((c) => providerKey(c) ?? []));
  out.push(...endpoints.flatMap((e) => handlerKey(e) ?? []));
  return out.filter((f, i) => out.findIndex((o) => o.location === f.location && o.kind === f.kind) === i);
}
