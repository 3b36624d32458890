/**
 * Encryption at rest for the stored payment responses (the recommended setting for payment
 * flows): AES-256-GCM, each response bound to its key, user and status, so the store never holds
 * a card, an amount or a recipient in plaintext and a row copied to another user never replays.
 *   IDEMPOTENCY_ENCRYPTION_KEY  base64 of 32 random bytes (`openssl rand -base64 32`): use this in production
 *   without it                  a development key is created once in ENCRYPTION_KEY_FILE (default:
 *                               payments.key beside SQLITE_FILE, mode 0600), so replays survive a restart
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEncryptionCodec, type ResponseCodec } from '@idempotency-builder/runtime';

export interface ResponseEncryption {
  readonly codec: ResponseCodec;
  /** For the startup log: where the key came from (never the key). */
  readonly description: string;
}

export function responseEncryption(env: NodeJS.ProcessEnv = process.env): ResponseEncryption {
  let key: Buffer;
  let description: string;
  if (env.IDEMPOTENCY_ENCRYPTION_KEY) {
    key = Buffer.from(env.IDEMPOTENCY_ENCRYPTION_KEY, 'base64');
    description = 'responses encrypted (key from IDEMPOTENCY_ENCRYPTION_KEY)';
  } else {
    const file = env.ENCRYPTION_KEY_FILE ?? join(dirname(env.SQLITE_FILE ?? 'payments.db'), 'payments.key');
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    description = `responses encrypted (development key in ${file})`;
  }
  // Key ids let you rotate: add the new key, make it active, keep the old one until its records expire.
  return { codec: createEncryptionCodec({ keys: { k1: key }, activeKeyId: 'k1' }), description };
}
