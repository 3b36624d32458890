/** examples/schedules run as scripts (tsx), against the sources; the BullMQ one needs Redis. */
import { describe, expect, it } from 'vitest';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { runExample } from '../functions/run-example.js';

const redisUp = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));

describe('examples/schedules', () => {
  it('croner-two-schedulers.ts runs each slot once', async () => {
    const { code, output } = await runExample('schedules/croner-two-schedulers.ts');
    expect(output).toMatch(/ran 1x/);
    expect(output).not.toMatch(/ran [2-9]x/);
    expect(code).toBe(0);
  });

  it.skipIf(!redisUp)('bullmq-scheduler.ts runs its scheduler jobs', async () => {
    const { code, output } = await runExample('schedules/bullmq-scheduler.ts');
    expect(output).toMatch(/-> ran \(slot \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z\)/);
    expect(code).toBe(0);
  });
});
