/** `enabled: false`: a pass-through engine for tests that never touches the store and warns at creation. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISABLED_WARNING } from '../../src/core/disabled.js';
import { createIdempotency } from '../../src/core/engine.js';
import { InvalidKeyError, InvalidOptionsError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { capturingLogger } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('disabled engine', () => {
  it('runs every call, stores nothing and warns once at creation', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const store = createMemoryStore();
    const { logger, lines } = capturingLogger();
    const engine = createIdempotency({ store, enabled: false, logger });
    expect(lines.filter((line) => line.includes(DISABLED_WARNING))).toHaveLength(1);
    expect(emitted).toHaveBeenCalledWith(DISABLED_WARNING, { code: 'IDEMPOTENCY_DISABLED' });
    let runs = 0;
    const request = { key: 'k', scope: 'alice', fingerprint: 'f'.repeat(64) };
    for (let i = 1; i <= 3; i++) expect(await engine.run(request, () => ++runs)).toEqual({ value: i, replayed: false });
    expect(store.records.size).toBe(0);
    const begun = await engine.begin(request);
    expect(begun.outcome).toBe('claimed');
    if (begun.outcome === 'claimed') {
      await begun.complete('x');
      expect(await begun.release()).toBe(true);
    }
    expect(store.records.size).toBe(0);
    expect(lines.filter((line) => line.includes(DISABLED_WARNING))).toHaveLength(1); // not per call
    // Still validated: a test with a malformed key fails as it would in production.
    await expect(engine.run({ ...request, key: 'bad key!' }, () => 0)).rejects.toBeInstanceOf(InvalidKeyError);
  });

  it('is on by default and validates the switch', () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(createIdempotency({ store: createMemoryStore() }).options.enabled).toBe(true);
    expect(emitted).not.toHaveBeenCalled();
    expect(() => createIdempotency({ store: createMemoryStore(), enabled: 'no' as never })).toThrow(InvalidOptionsError);
  });
});
