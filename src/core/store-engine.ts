import type { Clock } from './clock.js';
import type { ServiceRequest } from './http.js';
import type { Store } from './store.js';
import type { RecordKeeping } from './store-observer.js';

/**
 * Where state lives beyond one process's Maps: a state file, or a server many processes share. The memory
 * engine is no engine at all: the service calls none of this, and its hot path stays synchronous.
 */
export interface StoreEngine extends RecordKeeping {
  /**
   * Once, when the service is created: fills the store (and a controllable clock) with what was kept. Answers whether
   * anything was; the configured world is seeded only into an empty state.
   */
  attach(store: Store, clock: Clock): boolean;
  /**
   * Before a request runs, for engines whose records live elsewhere: brings those it may read up to date. Given the
   * count the request is expected to make, an engine may make it in the same round trip: it then answers the
   * function that hands the server's answer to the next synchronous `hit` of that bucket, to be called right before
   * the stateful part runs with the context the expectation was computed from.
   */
  beforeRequest?(request: ServiceRequest, expected?: ExpectedCount): Promise<(() => void) | undefined>;
  /** After a request ran and before its answer leaves: keeps what it touched. Throws StoreUnavailable. */
  afterRequest(): void | Promise<void>;
}

/**
 * The bucket a request will be counted in once its token is found live (see `expectedCount` in service.ts): in
 * `category`, keyed by `ip`, or by the token's player when `ip` is undefined, at `now`, opening a window ending
 * at `windowEnd` when none is live, unless `limit` are counted.
 */
export interface ExpectedCount {
  category: string;
  ip: string | undefined;
  /** Counted only when the request's bearer token is live and still valid for its player, as `authenticate` reads it. */
  needsLiveToken: boolean;
  now: number;
  windowEnd: number;
  limit: number;
}

/** The engine cannot read or write its state now: the request is answered 503, never let through uncounted. */
export class StoreUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
    this.name = 'StoreUnavailable';
  }
}

/**
 * Thrown by an engine that must ask its server before it can answer (a bucket counted on Redis): the
 * request runs again once `ready` resolves, right after calling the function it resolves to, which hands
 * the server's answer to the next synchronous read. The memory engine never throws it.
 */
export class StoreSuspension {
  constructor(readonly ready: Promise<() => void>) {}
}

/** Told once when the store becomes unreachable (with why) and once when it answers again. */
export type StoreStatusListener = (status: { available: false; reason: string } | { available: true }) => void;
