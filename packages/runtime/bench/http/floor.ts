/**
 * The floor of a protected request: the work no implementation that keeps the guarantees can
 * skip, measured alone on the same store in the bench process — hash the request (method, path,
 * canonical body) and claim it; on a new key also record the ~90-byte response. No framework, no
 * engine, no adapter. Added to the unprotected request's server CPU, it bounds the ratio any
 * adapter could reach on this machine: ceiling = plain CPU ÷ (plain CPU + floor). A replay skips
 * the handler, so its floor is the claim minus the handler's own work (building and serialising
 * the payment), which is why its ceiling can pass 1.0 only when the handler costs more than a claim.
 */
import { createPayment } from './apps.js';
import { BODY } from './load.js';
import { openStore, type BenchStoreKind } from './stores.js';
import { importRuntime } from '../runtime-import.js';

export interface RequestFloor {
  /** CPU µs per new key: fingerprint + claim + complete. */
  readonly newKeyUs: number;
  /** CPU µs per replay: fingerprint + claim answering the stored record. */
  readonly replayUs: number;
  /** CPU µs the handler itself spends (what a replay does not run). */
  readonly handlerUs: number;
}

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** CPU µs per call: the lowest of three passes (a floor should not carry a noisy neighbour's share). */
async function perCall(count: number, call: (i: number) => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(2000, count); i++) await call(-1 - i); // warm-up, not counted
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 3; pass++) {
    const start = cpuUs();
    for (let i = 0; i < count; i++) await call(pass * count + i);
    best = Math.min(best, (cpuUs() - start) / count);
  }
  return best;
}

/**
 * Measures the floor on a fresh store of `kind`, `count` calls per part.
 * @example const floor = await measureFloor('memory', 20_000); // { newKeyUs: 6.1, replayUs: 3.9, handlerUs: 0.8 }
 */
export async function measureFloor(kind: BenchStoreKind, count = 20_000): Promise<RequestFloor> {
  const { requestFingerprint } = await importRuntime<typeof import('@idempotency-builder/runtime/http')>('http');
  const { store, cleanup } = await openStore(kind);
  const run = Date.now().toString(36);
  const parsed = JSON.parse(BODY) as object;
  const response = {
    encoding: 'json' as const,
    body: new TextEncoder().encode(JSON.stringify(createPayment(parsed))),
    statusCode: 201,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  };
  const claimOf = (key: string, fingerprint: string) =>
    store.claim({ key, scope: 'bench', fingerprint, owner: null, leaseMs: 30_000, ttlMs: 3_600_000, replaceExpired: true });
  // The body as parsed by the framework before any hook runs, as every adapter receives it.
  const fingerprintOf = () => requestFingerprint({ method: 'POST', path: '/protected', body: parsed });
  try {
    const newKeyUs = await perCall(count, async (i) => {
      const key = `floor-${run}-${i}`;
      const claim = await claimOf(key, fingerprintOf());
      if (claim.outcome !== 'claimed') throw new Error(`floor: ${key} was not new`);
      await store.complete({ key, scope: 'bench', lockVersion: claim.lockVersion, response, ttlMs: 3_600_000 });
    });
    const replayKey = `floor-${run}-0`;
    const replayUs = await perCall(count, async () => {
      const claim = await claimOf(replayKey, fingerprintOf());
      if (claim.outcome !== 'existing') throw new Error('floor: the replay key was not found');
    });
    const handlerUs = await perCall(count * 5, () => JSON.stringify(createPayment(parsed)));
    return { newKeyUs, replayUs, handlerUs };
  } finally {
    await store.close();
    await cleanup();
  }
}

/**
 * The highest protected ÷ unprotected ratio the floor leaves, if server CPU were the only cost.
 * @example ceiling(45, 6) // 0.88
 */
export const ceiling = (plainCpuUs: number, addedUs: number) => plainCpuUs / (plainCpuUs + addedUs);
