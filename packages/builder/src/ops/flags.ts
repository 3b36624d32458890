/** Flag values of the ops commands, checked once; a bad one is a one-line StoreTargetError (exit 2). */
import { parseDuration } from '../questions/duration.js';
import { StoreTargetError } from './store-target.js';

/**
 * A duration flag (`30s`, `5m`, `2h`, or `0`) in ms.
 * @example durationFlag('older-than', '5m', 0) // 300_000
 */
export function durationFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (/^\s*0+\s*$/.test(text)) return 0;
  const ms = parseDuration(text);
  if (ms === undefined) throw new StoreTargetError(`--${name} must be a duration such as 30s, 5m or 2h; got "${text}".`);
  return ms;
}

/**
 * A whole-number flag, at least 1.
 * @example countFlag('limit', '100', 100) // 100
 */
export function countFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new StoreTargetError(`--${name} must be a whole number >= 1; got "${text}".`);
  return value;
}
