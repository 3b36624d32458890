/**
 * Durations as people write them in an answers file or a prompt (`24h`, `31 days`, `250ms`),
 * turned into the milliseconds the answers carry.
 */

const UNITS: Record<string, number> = {
  ms: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
};

/**
 * Milliseconds for `24h`, `31 days`, `1.5s`, `250ms` or a bare number of ms; undefined when the
 * text is not a positive duration.
 * @example parseDuration('24h') // 86_400_000
 */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = (match[2] ?? '').toLowerCase() || 'ms';
  const factor = UNITS[unit];
  const ms = factor === undefined ? Number.NaN : Math.round(Number(match[1]) * factor);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
