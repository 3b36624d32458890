/** Section 8: security — the eight points, tailored to the stack. */
import { DEFAULT_PROBLEM_TYPE_BASE, PROBLEM_CODES, PROBLEMS, problemStatus } from '@idempotency-builder/runtime/contract';
import { bullets, code, collapse, labelled, link, para, rich, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { StoreKind } from '../plan/stack.js';
import { generatedCodec, RUNTIME_DOCS, type DesignContext } from './context.js';
import { runtimeKeyRule } from './key-rules.js';

const ENCRYPTION: Record<StoreKind, string> = {
  postgresql: 'encrypt them in the application (AES-256-GCM, the runtime’s response codec), not with pgcrypto (its key lands in SQL logs)',
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
  const scope = plan.answers.scope;
  const rule = runtimeKeyRule();
  const codec = generatedCodec(ctx);
  return section('security', '8. Security', [
    bullets([
      labelled('Key enumeration', scope === 'global'
        ? txt`keys share one namespace, and every record stores its creator: a key owned by someone else answers 404, never 403 (which would confirm it exists).`
        : txt`keys are scoped to the authenticated ${scope}, from the session (${link('2(b)', 'key-scope')}): another’s key confirms nothing.`),
      labelled('Timing attacks', txt`fingerprints are compared in constant time.`),
      labelled('Replay protection', txt`an expired key never gets its old response; to bind keys to a session, fold the session id into the scope.`),
      labelled('Guessability', rule.acceptsShort
        ? txt`the runtime checks a key’s form only (${link('2(c)', 'key-validation')}); a guessed key lands in the guesser’s own scope.${plan.actions.some((a) => a.action.keySource === 'derived' || a.action.kind !== 'http') ? ' Derived keys are used only after the signature or broker authentication is verified.' : ''}`
        : txt`keys must be 1–${rule.maxLength} characters of \`[A-Za-z0-9_.:~-]\`; clients generate UUIDv4 or ULID.`),
      labelled('Rate limiting', txt`over 100 new keys a minute from one principal answers 429 (the runtime’s \`rateLimit\`, on Redis across instances); \`idempotency.keys_created_per_user\` tracks it.`),
      labelled('409 responses', txt`echo nothing of the original (${link('3', 'fingerprinting')}).`),
      labelled('PII in stored responses', txt`${codec === 'encryption' ? 'the generated engine sets `createEncryptionCodec`, so stored bodies are AES-256-GCM encrypted; ' : codec === 'hash-only' ? 'the generated engine sets `createHashOnlyCodec`, so only status and body hash are stored; ' : 'the generated code sets no codec, so bodies are stored as sent: '}${rich(ENCRYPTION[plan.stack.store])}, or keep only a hash (\`createHashOnlyCodec\`).`),
      labelled('Log hygiene', txt`the runtime logs a key only as \`h:\` + 12 hex characters of its SHA-256; never log keys, fingerprints or bodies.`),
    ]),
    para(txt`Refusals are problem+json (RFC 9457), type ${code(`${DEFAULT_PROBLEM_TYPE_BASE}<code>`)}, with a fixed title${plan.stack.language === 'typescript' ? rich(` (the runtime’s \`PROBLEMS\`, documented in \`${RUNTIME_DOCS}http.md\`)`) : ''}.`),
    collapse(
      table(
        ['Code', 'Status', 'IETF profile', 'Title'],
        PROBLEM_CODES.map((c) => [[code(c)], String(problemStatus(c, 'spec')), String(problemStatus(c, 'ietf')), PROBLEMS[c].title]),
        'Refusals and their HTTP answers',
      ),
      `Show all ${PROBLEM_CODES.length} refusals and their statuses`,
    ),
  ]);
}
