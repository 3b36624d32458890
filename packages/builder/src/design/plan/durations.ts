/** Millisecond durations as people read them, and the constants the design reasons with. */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

function trim(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
}

/**
 * A duration in the largest unit that keeps it readable.
 * @example formatMs(90_000) // '1.5 min'; formatMs(31 * DAY) // '31 days'
 */
export function formatMs(ms: number): string {
  // A unit is used only when it shows the value exactly (or it is large enough that 0.1 is close).
  const exact = (unit: number, limit: number) => ms % unit === 0 || ms >= limit * unit;
  if (ms < SECOND) return `${ms} ms`;
  if (ms < MINUTE || !exact(MINUTE, 10)) return ms < HOUR ? `${trim(ms / SECOND)} s` : `${trim(ms / MINUTE)} min`;
  if (ms < HOUR || !exact(HOUR, 10)) return ms < 2 * DAY ? `${trim(ms / MINUTE)} min` : `${trim(ms / HOUR)} h`;
  if (ms < 2 * DAY || !exact(DAY, 10)) return `${trim(ms / HOUR)} h`;
  const days = ms / DAY;
  return `${trim(days)} ${days === 1 ? 'day' : 'days'}`;
}

/**
 * A duration as a PostgreSQL interval literal, e.g. `interval '90 seconds'`.
 * @example pgInterval(5 * MINUTE) // "interval '300 seconds'"
 */
export function pgInterval(ms: number): string {
  return `interval '${Math.round(ms / SECOND)} seconds'`;
}

/** Rounds up to a whole second: leases below a second are meaningless with heartbeats. */
export const ceilToSecond = (ms: number): number => Math.ceil(ms / SECOND) * SECOND;

/**
 * Compact count, e.g. 1.2M, 150K.
 * @example formatCount(250_000) // '250K'
 */
export function formatCount(value: number): string {
  if (value >= 1e9) return `${trim(Math.round(value / 1e8) / 10)}B`;
  if (value >= 1e6) return `${trim(Math.round(value / 1e5) / 10)}M`;
  if (value >= 1e3) return `${trim(Math.round(value / 1e2) / 10)}K`;
  return String(Math.round(value));
}
