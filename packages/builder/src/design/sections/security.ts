/** Section 8: security — the eight points, tailored to the stack. */
import { DEFAULT_PROBLEM_TYPE_BASE, PROBLEM_CODES, PROBLEMS, problemStatus } from '@idempotency-builder/runtime/contract';
import { bullets, code, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { StoreKind } from '../plan/stack.js';
import type { DesignContext } from './context.js';

const ENCRYPTION: Record<StoreKind, string> = {
  postgresql: 'encrypt the response column in the application (AES-256-GCM through the runtime’s response codec) or at least run the volume encrypted; pgcrypto would put the key in SQL text and logs',
  mysql: 'encrypt the response in the application (AES-256-GCM) and run InnoDB tablespace encryption',
  sqlite: 'encrypt the response in the application (AES-256-GCM); the database file itself is plain',
  redis: 'encrypt the response in the application (AES-256-GCM) — Redis has no encryption at rest; RDB/AOF files and replicas hold plain bytes',
  dynamodb: 'DynamoDB encrypts at rest with KMS; add application-level encryption for card or bank data so IAM read access is not enough',
  mongodb: 'use client-side field-level encryption (or application AES-256-GCM) for response_body',
};

/**
 * Section 8: the eight security rules, tailored to the store and scope.
 * @example securitySection({ plan, artifacts })
 */
export function securitySection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const payments = plan.actions.some((a) => a.action.provider);
  const scope = plan.answers.scope;
  return section('security', '8. Security', [
    para(txt`Idempotency records hold responses and recognise requests, which makes them a target. Eight rules:`),
    bullets([
      labelled('Key enumeration', txt`keys are scoped to the authenticated ${scope === 'global' ? 'caller through the stored owner' : scope} (composite primary key of key + ${scope === 'global' ? 'scope, plus an owner column' : 'user_id'}), and the scope comes from the session, never the request. ${scope === 'global' ? 'A key owned by someone else answers 404, never 403 — a 403 would confirm the key exists.' : 'Another user’s key is simply a new key in the caller’s own namespace; nothing reveals that it exists elsewhere. Where a shared namespace is ever used, a foreign key answers 404, not 403.'}`),
      labelled('Timing attacks', txt`fingerprints are compared in constant time; a comparison that returns at the first differing byte would let a caller learn a stored hash byte by byte.`),
      labelled('Replay protection', txt`an expired key is never reactivated: after expiry a request is new (or refused, by policy), never answered with the old response. Where the threat model needs it, bind keys to the session that created them by folding the session id into the scope.`),
      labelled('Guessability', txt`client keys must be UUIDv4 or ULID (at least 80 random bits, UUIDv4 122); anything shorter or patterned is refused with 400. Derived keys (webhooks, messages) are only accepted after the signature or the broker’s authentication is verified.`),
      labelled('Rate limiting', txt`more than 100 new keys a minute from one principal answers 429 with Retry-After (the runtime’s \`rateLimit\`, on Redis when several instances serve traffic), and \`idempotency.keys_created_per_user\` tracks the volume.`),
      labelled('409 responses', txt`a mismatch says only that the key was used with different parameters. It never returns the original body, its fingerprint or the stored response.`),
      labelled('PII in stored responses', txt`${payments ? 'payment responses are stored in full so a retry gets the same answer; ' : ''}${rich(ENCRYPTION[plan.stack.store])}. For non-critical actions store only the status and a SHA-256 of the body (the runtime’s hash-only codec) — a replay then confirms the outcome without keeping personal data. Retention (section 5.4) bounds how long anything is kept; GDPR erasure deletes a user’s records by \`user_id\`.`),
      labelled('Log hygiene', txt`never log full keys, fingerprints or bodies. The runtime logs keys as \`h:\` + the first 12 hex characters of their SHA-256 — enough to correlate log lines, useless to replay a request.`),
    ]),
    para(txt`Every refusal is \`application/problem+json\` (RFC 9457) with the type ${code(`${DEFAULT_PROBLEM_TYPE_BASE}<code>`)} and a fixed title that never echoes the request. The table is the runtime adapters’ own (\`PROBLEMS\`); the IETF profile answers a reused key with other parameters with 422 instead of 409.`),
    table(
      ['Code', 'Status', 'IETF profile', 'Title'],
      PROBLEM_CODES.map((c) => [[code(c)], String(problemStatus(c, 'spec')), String(problemStatus(c, 'ietf')), PROBLEMS[c].title]),
      'Refusals and their HTTP answers',
    ),
  ]);
}
