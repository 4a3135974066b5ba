import { HEADERS, RATE_LIMIT_WINDOW_MS, RATE_LIMITS, type RateLimitCategory } from '../../../src/spec/limits.js';
import { type Exchange, integerHeader } from '../../common/exchange.js';
import type { ModelledAnswer } from '../model/modelled-answer.js';
import { modelAnswer } from './modelled-answers.js';
import { ServerChoices } from './server-choices.js';
import { bucketKey, type Caller, categoryOf, isCounted, RateLimitModel } from '../model/rate-limit-model.js';
import { readingIn, RETRY_AFTER_UNITS } from '../model/retry-after.js';
import { midpoint, type TimeInterval } from '../model/server-time.js';

/** One answer of a counted route as the proxy saw it. */
export interface RateLimitObservation {
  method: string;
  path: string;
  caller: Caller;
  exchange: Exchange;
  /** When the server made the answer, on its own clock (its Date header), else on this machine's. */
  serverTime: TimeInterval;
  /** Another request of the same bucket was in flight at the same time: the server may have counted them in either order. */
  overlapped: boolean;
}

/** What the model makes of one answer for the rules to judge, where it knew the request's bucket and whether it counts; and whether it is a 429 of a spent bucket. */
export interface RateLimitReading {
  modelled: ModelledAnswer | undefined;
  bucketSpent: boolean;
}

const nothing = (): RateLimitReading => ({ modelled: undefined, bucketSpent: false });

/** How many buckets the proxy follows at once. */
const REMEMBERED_BUCKETS = 100_000;

/** The player buckets the Limits table names for a method: reads for GET, gameplay for the others. */
const playerCategoriesOf = (method: string): RateLimitCategory[] => (method.toUpperCase() === 'GET' ? ['read'] : ['gameplay']);

/**
 * The rate-limit model, as the fuzzer follows it, applied to traffic the proxy did not choose. Buckets the proxy did
 * not see open are adopted from their first answer; a bucket's window end stays a guess until X-RateLimit-Reset
 * can be read, and while it is a guess a fresh window shown by the server is taken, not judged; answers that
 * overlapped another of their bucket are judged on everything but their place in the count.
 */
export class LiveRateLimits {
  #choices = new ServerChoices();
  readonly #model = new RateLimitModel({ alignments: (category) => this.#choices.alignmentFor(category) });
  readonly #seen = new Set<string>();
  readonly #guessedEnd = new Set<string>();
  readonly #maxBuckets: number;

  constructor(maxBuckets = REMEMBERED_BUCKETS) {
    this.#maxBuckets = maxBuckets;
  }

  /** The server's state moved under the proxy (its control API was called): forget every bucket and choice. */
  reset(): void {
    this.#model.clear();
    this.#choices = new ServerChoices();
    this.#seen.clear();
    this.#guessedEnd.clear();
  }

  /** The bucket a request draws from, when the spec names one and the caller is known. */
  keyOf(method: string, path: string, caller: Caller): string | undefined {
    const category = categoryOf(method, path);
    if (category === undefined || !isCounted(category, caller.gameOrigin)) return undefined;
    return bucketKey(category, caller);
  }

  /**
   * Buckets a request may be counted in besides its own, where the spec does not show which: its address's public
   * bucket, for a route beyond the table and for a player's route (answered 401 without a valid token).
   */
  mayAlsoCount(method: string, path: string, caller: Caller): string[] {
    const category = categoryOf(method, path);
    if (category !== undefined && RATE_LIMITS[category].scope !== 'player') return [];
    const others: RateLimitCategory[] = category === undefined ? ['public', ...playerCategoriesOf(method)] : ['public'];
    return others.flatMap((other) => {
      const key = isCounted(other, caller.gameOrigin) ? bucketKey(other, caller) : undefined;
      return key === undefined ? [] : [key];
    });
  }

  /** A request the server may have counted in the caller's public bucket unseen: that bucket is adopted again from its next answer. */
  adoptPublicAgain(caller: Caller): void {
    const publicKey = bucketKey('public', caller);
    if (publicKey !== undefined) this.#seen.delete(publicKey);
  }

  /**
   * A request beyond the table: its caller's public bucket may have counted it, and with a player, the bucket the
   * Limits table names by its method (an authenticated GET is a read, a POST gameplay), which only the server knows
   * it applies to this route: each is adopted again from its next answer.
   */
  adoptBeyondTableAgain(method: string, caller: Caller): void {
    this.adoptPublicAgain(caller);
    for (const category of playerCategoriesOf(method)) {
      const key = bucketKey(category, caller);
      if (key !== undefined) this.#seen.delete(key);
    }
  }

  /** Adopt a request's buckets again from their next answers: it passed unjudged, and may have been counted. */
  adoptAgain(keys: readonly string[]): void {
    for (const key of keys) this.#seen.delete(key);
  }

  /** How long a 429's Retry-After asks a client to wait, in the unit the server showed; its shortest reading until then. */
  retryWaitMs(value: number): number {
    const unit = this.#choices.retryAfterUnit;
    if (unit !== undefined) return readingIn(value, unit).waitMs;
    const readings = RETRY_AFTER_UNITS.map((each) => readingIn(value, each).waitMs).filter((waitMs) => waitMs <= RATE_LIMIT_WINDOW_MS);
    return readings.length === 0 ? 0 : Math.min(...readings);
  }

  /** The answer read against the model (the rules of the Limits judge it), and the model brought up to what it showed. */
  read(observation: RateLimitObservation): RateLimitReading {
    const { method, path, caller, exchange, serverTime } = observation;
    const category = categoryOf(method, path);
    // Which bucket counts a route beyond the table, or a request without a valid token, is not shown: the
    // address's public bucket may have, so it is adopted again from its next answer.
    if (category === undefined) {
      this.adoptBeyondTableAgain(method, caller);
      return nothing();
    }
    const key = this.keyOf(method, path, caller);
    const atMs = midpoint(serverTime);
    // A 401 to a player's route: no player's bucket counted it.
    if (exchange.status === 401 && RATE_LIMITS[category].scope === 'player') {
      this.adoptPublicAgain(caller);
      return nothing();
    }
    if (exchange.status >= 500) {
      // Whether a failed request was counted is not shown: its bucket is adopted again from its next answer.
      if (key !== undefined) this.#seen.delete(key);
      return nothing();
    }
    const request = { method, path, caller, atMs };
    const predicted = this.#model.predict(request);
    if (predicted.counted === undefined) return nothing();
    const outcome = path === '/health' ? 'health' : 'handled';
    const context = { caller, at: serverTime, choices: this.#choices, exactClock: false };
    if (predicted.counted === false || key === undefined) return { modelled: modelAnswer(exchange, predicted, outcome, context).modelled, bucketSpent: false };
    const certain = !observation.overlapped && this.#seen.has(key) && !this.#freshWindowOverGuess(key, predicted, exchange);
    const expectation = certain ? this.#model.record(request) : { ...predicted, nearBoundary: true };
    const reading = modelAnswer(exchange, expectation, outcome, context);
    const bucketSpent = this.bucketSpent(exchange, certain && expectation.limited === true);
    // A 429 the model did not see coming may be another limit's (wrong codes: not shown).
    reading.modelled.unforeseen429 = exchange.status === 429 && !bucketSpent;
    if (reading.remaining !== undefined) {
      const windowEndMs = reading.windowEnd === undefined ? undefined : midpoint(reading.windowEnd);
      this.#model.sync(category, caller, { remaining: reading.remaining, atMs, windowEndMs });
      if (windowEndMs === undefined) this.#guessedEnd.add(key);
      else this.#guessedEnd.delete(key);
      this.#seen.add(key);
      // Hostile traffic (an address per request) must not grow memory: past the bound, every bucket is adopted again.
      if (this.#seen.size > this.#maxBuckets) this.reset();
    }
    return { modelled: reading.modelled, bucketSpent };
  }

  /** A 429 that is its bucket's: the model saw the bucket spent, or the answer says none is left. */
  bucketSpent(exchange: Exchange, predicted: boolean): boolean {
    return exchange.status === 429 && (predicted || integerHeader(exchange, HEADERS.rateLimitRemaining) === 0);
  }

  /** The server shows a window opened afresh while the model's end of the old one was only a guess (at most a minute after it was first seen). */
  #freshWindowOverGuess(key: string, predicted: { limit: number | undefined; remaining: number | undefined }, exchange: Exchange): boolean {
    if (!this.#guessedEnd.has(key) || predicted.limit === undefined) return false;
    const remaining = integerHeader(exchange, HEADERS.rateLimitRemaining);
    return remaining === predicted.limit - 1 && predicted.remaining !== predicted.limit - 1;
  }
}
