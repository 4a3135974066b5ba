import { HEADERS, RATE_LIMIT_WINDOW_MS, RATE_LIMITS, type RateLimitCategory, type RateLimitWindows } from '../spec/limits.js';
import type { BucketState, BucketTableFull } from './bucket-table.js';
import { ApiError } from './errors.js';
import type { Rules } from './request-context.js';
import type { Store } from './store.js';
import { rateLimitWindows, resetHeader, retryAfterHeader, retryAfterSeconds } from './variant-effects.js';

/** One bucket as a response shows it. */
interface RateLimitState {
  limit: number;
  remaining: number;
  windowEnd: number;
}

/** A request counted in its bucket: the X-RateLimit-* headers it carries, and the 429 when the bucket was empty. */
export interface Counted {
  headers: Record<string, string>;
  refusal: ApiError | undefined;
}

/** When a window opened by a request at `now` ends. */
function windowEndFor(now: number, windows: RateLimitWindows): number {
  return windows === 'first-hit' ? now + RATE_LIMIT_WINDOW_MS : Math.floor(now / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS + RATE_LIMIT_WINDOW_MS;
}

/** When the window a request opens at `now` ends, under the rules in force. */
export function windowEndOf(rules: Rules, now: number): number {
  return windowEndFor(now, rateLimitWindows(rules.variants, rules.config.rateLimitWindows));
}

/** The 503 for a key the bucket store has no room for: no live bucket is ever dropped to make room. */
function bucketStoreFullError(store: Store, full: BucketTableFull, now: number): ApiError {
  const seconds = retryAfterSeconds(full.retryAt, now);
  return new ApiError(503, `The mock tracks as many rate-limit buckets as it may (${store.buckets.capacity}), all in live windows; retry in ${seconds} s`, {
    [HEADERS.retryAfter]: String(seconds),
  });
}

/** Fills the bucket of (category, key) in its current window, opening a new window when the last one has ended. */
export function fillBucket(store: Store, rules: Rules, category: RateLimitCategory, key: string, now: number): BucketState {
  const bucket = store.buckets.fill(category, key, now, windowEndOf(rules, now), RATE_LIMITS[category].limit);
  if ('full' in bucket) throw bucketStoreFullError(store, bucket, now);
  return bucket;
}

/**
 * Fixed 60 s windows per (category, key), starting at the key's first counted request or on clock minutes.
 * Counts the request; a store without room for its bucket throws the 503.
 */
export function countRequest(store: Store, rules: Rules, category: RateLimitCategory, key: string, now: number): Counted {
  const { limit } = RATE_LIMITS[category];
  const bucket = store.buckets.hit(category, key, now, windowEndOf(rules, now), limit);
  if ('full' in bucket) throw bucketStoreFullError(store, bucket, now);
  const headers = rateLimitHeaders(rules, { limit, remaining: limit - bucket.count, windowEnd: bucket.windowEnd }, now);
  if (bucket.counted) return { headers, refusal: undefined };
  const seconds = retryAfterSeconds(bucket.windowEnd, now);
  const refusal = new ApiError(429, `Rate limit exceeded: ${limit} ${category} requests per minute; retry in ${seconds} s`, {
    [HEADERS.retryAfter]: retryAfterHeader(rules.variants, bucket.windowEnd, now),
  });
  return { headers, refusal };
}

/** The headers of a full bucket in a window opened now: what a game-origin request is shown where that variant plays. */
export function fullBucketHeaders(rules: Rules, category: RateLimitCategory, now: number): Record<string, string> {
  const { limit } = RATE_LIMITS[category];
  return rateLimitHeaders(rules, { limit, remaining: limit, windowEnd: windowEndOf(rules, now) }, now);
}

function rateLimitHeaders(rules: Rules, state: RateLimitState, now: number): Record<string, string> {
  return {
    [HEADERS.rateLimitLimit]: String(state.limit),
    [HEADERS.rateLimitRemaining]: String(state.remaining),
    [HEADERS.rateLimitReset]: resetHeader(rules.variants, state.windowEnd, now),
  };
}
