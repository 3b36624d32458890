/**
 * What a library asks of Redis per call: `INFO commandstats` deltas around a measured round give
 * commands and server microseconds (Redis's own accounting, Lua's inner calls included in the
 * script's time) per call. Valid while nothing else uses the server during the round.
 */
import { Redis } from 'ioredis';

export interface ServerCost {
  /** Commands Redis executed (EVALSHA counts once; its inner redis.call()s are listed apart). */
  calls: number;
  /** Top-level commands a client sent (EVALSHA/EVAL, not the calls inside a script). */
  sent: number;
  /** Server time in microseconds, top-level commands only (a script's time includes its calls). */
  usec: number;
}

const parse = (info: string): Map<string, { calls: number; usec: number }> => {
  const stats = new Map<string, { calls: number; usec: number }>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    stats.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return stats;
};

/** One `INFO commandstats` snapshot: calls and usec per command. */
export async function commandStats(redis: Redis): Promise<Map<string, { calls: number; usec: number }>> {
  return parse(await redis.info('commandstats'));
}

/**
 * The difference of two snapshots, without the INFO call itself. Calls inside scripts also appear
 * as their own commands: `sent` counts the scripts plus commands of the other kinds, and `usec`
 * takes the script's time once; a peer that sends plain commands has `sent === calls`.
 */
export function costBetween(
  before: Map<string, { calls: number; usec: number }>,
  after: Map<string, { calls: number; usec: number }>,
  scriptInner: ReadonlySet<string>,
): ServerCost {
  const cost: ServerCost = { calls: 0, sent: 0, usec: 0 };
  const scripted = (after.get('evalsha')?.calls ?? 0) - (before.get('evalsha')?.calls ?? 0) + (after.get('eval')?.calls ?? 0) - (before.get('eval')?.calls ?? 0);
  for (const [name, stat] of after) {
    if (name === 'info') continue;
    const calls = stat.calls - (before.get(name)?.calls ?? 0);
    const usec = stat.usec - (before.get(name)?.usec ?? 0);
    if (calls <= 0) continue;
    cost.calls += calls;
    // Inside a script, a command's time is already part of the EVALSHA's.
    const inner = scripted > 0 && scriptInner.has(name);
    if (!inner) {
      cost.sent += calls;
      cost.usec += usec;
    }
  }
  return cost;
}
