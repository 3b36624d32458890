/** Section 8: security — the eight points, tailored to the stack. */
import { DEFAULT_PROBLEM_TYPE_BASE, PROBLEM_CODES, PROBLEMS, problemStatus } from '@idempotency-builder/runtime/contract';
import { bullets, code, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { StoreKind } from '../plan/stack.js';
import { generatedCodec, type DesignContext } from './context.js';
import { runtimeKeyRule } from './key-rules.js';

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
  const rule = runtimeKeyRule();
  const codec = generatedCodec(ctx);
  return section('security', '8. Security', [
    para(txt`Idempotency records hold responses, which makes them a target. Eight rules:`),
    bullets([
      labelled('Key enumeration', txt`keys are scoped to the authenticated ${scope === 'global' ? 'caller through the stored owner' : scope} (composite primary key of key + ${scope === 'global' ? 'scope, plus an owner column' : 'user_id'}), and the scope comes from the session, never the request. ${scope === 'global' ? 'A key owned by someone else answers 404, never 403 (which would confirm it exists).' : 'Another user’s key is just a new key in the caller’s namespace.'}`),
      labelled('Timing attacks', txt`fingerprints are compared in constant time, so timing reveals nothing of a stored hash.`),
      labelled('Replay protection', txt`an expired key is never answered with its old response. To bind keys to a session, fold the session id into the scope.`),
      labelled('Guessability', rule.acceptsShort
        ? txt`the runtime checks only the form of a key (1–${rule.maxLength} characters of \`[A-Za-z0-9_.:~-]\`) — it accepts \`k1\`. Randomness is the client’s duty (UUIDv4 or ULID); a guessed key only lands in the guesser’s own scope. Derived keys are used only after the signature or broker authentication is verified.`
        : txt`keys must be 1–${rule.maxLength} characters of \`[A-Za-z0-9_.:~-]\`; clients generate UUIDv4 or ULID.`),
      labelled('Rate limiting', txt`more than 100 new keys a minute from one principal answers 429 with Retry-After (the runtime’s \`rateLimit\`, on Redis when several instances serve traffic), and \`idempotency.keys_created_per_user\` tracks the volume.`),
      labelled('409 responses', txt`a mismatch never returns the original body, its fingerprint or the stored response.`),
      labelled('PII in stored responses', txt`${payments ? 'payment responses are stored in full so a retry gets the same answer; ' : ''}${codec === 'encryption' ? 'the generated engine sets `createEncryptionCodec`, so stored bodies are AES-256-GCM encrypted; ' : codec === 'hash-only' ? 'the generated engine sets `createHashOnlyCodec`, so only status and body hash are stored; ' : 'the generated code sets no codec, so bodies are stored as sent — to protect them, '}${rich(ENCRYPTION[plan.stack.store])}. Non-critical actions can keep only status and body hash (\`createHashOnlyCodec\`). GDPR erasure deletes a user’s records by \`user_id\`.`),
      labelled('Log hygiene', txt`the runtime logs a key only as \`h:\` + 12 hex characters of its SHA-256; never log keys, fingerprints or bodies yourself.`),
    ]),
    para(txt`Every refusal is \`application/problem+json\` (RFC 9457) with the type ${code(`${DEFAULT_PROBLEM_TYPE_BASE}<code>`)} and a fixed title that never echoes the request. The table is the runtime adapters’ own (\`PROBLEMS\`); the IETF profile answers a reused key with other parameters with 422 instead of 409.`),
    table(
      ['Code', 'Status', 'IETF profile', 'Title'],
      PROBLEM_CODES.map((c) => [[code(c)], String(problemStatus(c, 'spec')), String(problemStatus(c, 'ietf')), PROBLEMS[c].title]),
      'Refusals and their HTTP answers',
    ),
  ]);
}
