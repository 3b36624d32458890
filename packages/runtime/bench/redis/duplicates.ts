/**
 * The correctness check beside the speed: 50 keys × 20 simultaneous duplicates each, all started
 * at once, counting how many times the handler really ran. One run per key is the only right
 * answer.
 */
import type { Contender, Payload } from './peers.js';

export interface DuplicateCheck {
  readonly label: string;
  readonly keys: number;
  readonly duplicates: number;
  /** Handler executions in total (right answer: `keys`). */
  readonly handlerRuns: number;
  /** Keys whose handler ran more than once. */
  readonly keysRunTwiceOrMore: number;
  readonly maxRunsForOneKey: number;
  /** How the calls ended: `answered` (ran or replayed) or the error they got, with counts. */
  readonly outcomes: Readonly<Record<string, number>>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Short, stable outcome names: the error class, or the HTTP status. */
function outcomeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const http = /^HTTP (\d+)/.exec(error.message);
  return http ? `HTTP ${http[1]}` : error.constructor.name;
}

/**
 * Runs the check for one contender; its handler takes `handlerMs` so duplicates overlap it.
 * @example const check = await duplicateCheck(ours('ioredis', 'bench:'), 'run1');
 */
export async function duplicateCheck(contender: Contender, runId: string, { keys = 50, duplicates = 20, handlerMs = 20 } = {}): Promise<DuplicateCheck> {
  const runs = new Map<string, number>();
  const running = await contender.start(async (payload: Payload) => {
    runs.set(payload.id, (runs.get(payload.id) ?? 0) + 1);
    await sleep(handlerMs);
    return { id: payload.id, ok: true };
  });
  try {
    const ids = Array.from({ length: keys }, (_, i) => `${contender.keyPrefix}${runId}-dup-${i}`);
    const settled = await Promise.allSettled(ids.flatMap((id) => Array.from({ length: duplicates }, () => running.invoke(id, { id, amount: 1 }))));
    const outcomes: Record<string, number> = {};
    for (const result of settled) {
      const name = result.status === 'fulfilled' ? 'answered' : outcomeOf(result.reason);
      outcomes[name] = (outcomes[name] ?? 0) + 1;
    }
    const counts = ids.map((id) => runs.get(id) ?? 0);
    return {
      label: contender.label,
      keys,
      duplicates,
      handlerRuns: counts.reduce((sum, count) => sum + count, 0),
      keysRunTwiceOrMore: counts.filter((count) => count > 1).length,
      maxRunsForOneKey: Math.max(...counts),
      outcomes,
    };
  } finally {
    await running.stop();
  }
}
