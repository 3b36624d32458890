/**
 * In-process single-flight: concurrent requests for one (scope, key) in this engine share ONE
 * store claim, and duplicates of a key this engine holds are answered from the local holder
 * without a store call. A flood of 10^5 duplicates thus costs one claim per process, and the
 * holder's own writes never queue behind the duplicates' claims.
 *
 * A held key is answered locally only while its lease is known to be live here: the heartbeat
 * is running and has not lost the lease (it aborts after leaseMs without a successful
 * extension, measured after the store's own lease end, so the local view is never shorter than
 * the store's). Without a heartbeat the store decides, as the lease then lapses on the store clock.
 */
import type { ClaimResult } from './store-contract.js';
import type { IdempotencyRecord } from './record.js';

export interface Flight {
  readonly fingerprint: string;
  readonly owner: string | null;
  /** The leader's claim, shared by everyone who joined while it was in flight. */
  readonly claim: Promise<ClaimResult>;
  /** Set once the leader holds the key. */
  held: HeldView | null;
  /** Resolves when the flight leaves the table (holder finished, lease lost, or claim answered). */
  readonly ended: Promise<void>;
}

export interface HeldView {
  readonly lockVersion: number;
  /** True while the local holder owns a live lease. */
  live(): boolean;
  /** Local estimate of the lease end (ms since the epoch), for Retry-After. */
  leaseEnd(): number;
}

export interface SingleFlight {
  /** The flight for this slot, if one is claiming or holding a live lease. */
  find(slot: string): Flight | undefined;
  /** Starts a flight around `claim()`; the caller is its leader. */
  start(slot: string, fingerprint: string, owner: string | null, claim: () => Promise<ClaimResult>): Flight;
  /** Removes the flight (only if it is still the slot's) and wakes its waiters. */
  end(slot: string, flight: Flight): void;
  readonly size: number;
}

/** The slot of a (scope, key): scope is validated to exclude the separator. */
export const slotOf = (scope: string, key: string) => `${scope}\u0000${key}`;

/**
 * One flight. Its `ended` promise is made only when someone waits for it (a duplicate with
 * `waitMs`): a protected call that nobody joins — almost all of them — allocates no promise and
 * registers no waker for it.
 */
class FlightEntry implements Flight {
  held: HeldView | null = null;
  readonly claim: Promise<ClaimResult>;
  #over = false;
  #ended: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(
    readonly fingerprint: string,
    readonly owner: string | null,
    claim: () => Promise<ClaimResult>,
  ) {
    this.claim = claim();
  }

  get ended(): Promise<void> {
    if (this.#ended === undefined) {
      this.#ended = this.#over ? Promise.resolve() : new Promise<void>((resolve) => (this.#wake = resolve));
    }
    return this.#ended;
  }

  finish(): void {
    this.#over = true;
    this.#wake?.();
  }
}

/**
 * @example
 * const flights = createSingleFlight();
 * const flight = flights.find(slotOf(scope, key)) ?? flights.start(slot, fingerprint, owner, () => store.claim(input));
 */
export function createSingleFlight(): SingleFlight {
  const flights = new Map<string, FlightEntry>();
  return {
    find(slot) {
      const flight = flights.get(slot);
      if (flight?.held && !flight.held.live()) return undefined;
      return flight;
    },
    start(slot, fingerprint, owner, claim) {
      const flight = new FlightEntry(fingerprint, owner, claim);
      flights.set(slot, flight);
      return flight;
    },
    end(slot, flight) {
      if (flights.get(slot) === flight) flights.delete(slot);
      (flight as FlightEntry).finish();
    },
    get size() {
      return flights.size;
    },
  };
}

/**
 * The record a store claim would have returned for a key this process holds: what the
 * duplicate-answering rules (owner, fingerprint, in progress) are applied to.
 * @example answerDuplicate({ request, ...localRecord(flight, key, scope), codec, serializer });
 */
export function localRecord(flight: Flight, held: HeldView, key: string, scope: string): { record: IdempotencyRecord; now: number } {
  const now = Date.now();
  return {
    now,
    record: {
      key,
      scope,
      owner: flight.owner,
      fingerprint: flight.fingerprint,
      status: 'PROCESSING',
      lockVersion: held.lockVersion,
      lockedUntil: held.leaseEnd(),
      response: null,
      createdAt: now,
      completedAt: null,
      expiresAt: Number.MAX_SAFE_INTEGER,
    },
  };
}
