/**
 * The logger port, with log hygiene built in: keys and fingerprints leave the engine only as
 * short hashes (enough to correlate lines, useless to an attacker), bodies never.
 */
import { createHash } from 'node:crypto';

export interface LogFields {
  readonly [field: string]: string | number | boolean | null | undefined;
}

/** Structurally compatible with pino, bunyan and console-like loggers. */
export interface Logger {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/**
 * A correlation id for a secret value: the first 12 hex chars of its SHA-256, prefixed so that
 * nobody mistakes it for the key. The same key always gives the same id.
 * @example redact('usr_7fQ9x_createOrder_a1b2') // 'h:3f9a0c51d2e7'
 */
export function redact(value: string): string {
  return `h:${createHash('sha256').update(value).digest('hex').slice(0, 12)}`;
}
