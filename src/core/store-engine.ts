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
   * Before a request runs, for engines whose records live elsewhere: brings those it may read up to date (the whole
   * state for a control request). Where its plan counts the request, an engine may make that count in the same round
   * trip: it then answers the function that hands the server's answer to the next synchronous `hit` of that bucket,
   * to be called right before the stateful part runs with the context the plan was made from.
   */
  beforeRequest?(request: ServiceRequest, load: RequestLoad): Promise<(() => void) | undefined>;
  /** After a request ran and before its answer leaves: keeps what it touched. Throws StoreUnavailable. */
  afterRequest(): void | Promise<void>;
}

/** What an engine that loads a request's records first is told of its plan (see `requestLoad` in admission-plan.ts). */
export interface RequestLoad {
  /** A control request, as the service decided once when it arrived. */
  readonly control: boolean;
  /** The count admission will make of an API request, where the engine may make it with the load. */
  readonly precount: Precount | undefined;
}

/** A bucket of a precount: in `category`, keyed by `ip`, or by the token's player where undefined, unless `limit` are counted. */
export interface PrecountBucket {
  readonly category: string;
  readonly ip: string | undefined;
  readonly limit: number;
}

/**
 * The count a request's plan makes at `now`, opening a window ending at `windowEnd` when none is live: in `admitted`
 * when it needs no token or its bearer token is live and still valid for its player (as `authenticate` reads it),
 * in `unauthorized` otherwise; nowhere where that bucket is undefined.
 */
export interface Precount {
  readonly now: number;
  readonly windowEnd: number;
  readonly needsToken: boolean;
  readonly admitted: PrecountBucket | undefined;
  readonly unauthorized: PrecountBucket | undefined;
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
