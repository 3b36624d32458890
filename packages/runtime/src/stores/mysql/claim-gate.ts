/**
 * A bound on the claims one store sends at once, so a flood of duplicates can never occupy every
 * pooled connection: heartbeats and completions of live holders do not pass through the gate and
 * always find a free connection (the pool queue is FIFO, and a holder's write queued behind
 * thousands of claims could outlive its lease).
 */

export interface ClaimGate {
  run<T>(body: () => Promise<T>): Promise<T>;
}

/**
 * A FIFO semaphore of `limit` slots; `Infinity` lets everything through.
 * @example const gate = createClaimGate(8); await gate.run(() => claimOnce());
 */
export function createClaimGate(limit: number): ClaimGate {
  if (limit === Infinity) return { run: (body) => body() };
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(body) {
      if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else active++;
      try {
        return await body();
      } finally {
        const next = waiting.shift();
        if (next) next(); // the slot passes straight to the next claim
        else active--;
      }
    },
  };
}
