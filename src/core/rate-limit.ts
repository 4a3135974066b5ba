import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS, type RateLimitCategory } from '../spec/limits.js';
import { ApiError } from './errors.js';
import type { RateLimitWindows, ResolvedOptions } from './options.js';
import { rateLimitWindows, resetHeader, retryAfterHeader } from './variant-effects.js';
import type { BucketState, BucketTableFull } from './bucket-table.js';
import type { Store } from './store.js';

interface RateLimitState {
  limit: number;
  remaining: number;
  windowEnd: number;
}

/** When a window opened by a request at `now` ends. */
function windowEndFor(now: number, windows: RateLimitWindows): number {
  return windows === 'first-hit' ? now + RATE_LIMIT_WINDOW_MS : Math.floor(now / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS + RATE_LIMIT_WINDOW_MS;
}

/** The 503 for a key the bucket store has no room for: no live bucket is ever dropped to make room. */
function bucketStoreFullError(store: Store, full: BucketTableFull, now: number): ApiError {
  const retryAfterSeconds = retryAfter(full.retryAt, now);
  return new ApiError(
    503,
    `The mock tracks as many rate-limit buckets as it may (${store.buckets.capacity}), all in live windows; retry in ${retryAfterSeconds} s`,
    { [HEADERS.retryAfter]: String(retryAfterSeconds) },
  );
}

/** Fills the bucket of (category, key) in its current window, opening a new window when the last one has ended. */
export function fillBucket(store: Store, category: RateLimitCategory, key: string, now: number, options: ResolvedOptions): BucketState {
  const windows = rateLimitWindows(options.variants, options.rateLimitWindows);
  const bucket = store.buckets.fill(category, key, now, windowEndFor(now, windows), RATE_LIMITS[category].limit);
  if ('full' in bucket) throw bucketStoreFullError(store, bucket, now);
  return bucket;
}

function retryAfter(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/**
 * Fixed 60 s windows per (category, key), starting at the key's first counted request or on clock minutes.
 * Counts the request, adds the X-RateLimit-* headers, and throws the 429 once the bucket is empty.
 */
export function consumeRateLimit(
  store: Store,
  category: RateLimitCategory,
  key: string,
  now: number,
  headers: Record<string, string>,
  options: ResolvedOptions,
): void {
  const { limit } = RATE_LIMITS[category];
  const windows = rateLimitWindows(options.variants, options.rateLimitWindows);
  const bucket = store.buckets.hit(category, key, now, windowEndFor(now, windows), limit);
  if ('full' in bucket) throw bucketStoreFullError(store, bucket, now);
  Object.assign(headers, rateLimitHeaders(options, { limit, remaining: limit - bucket.count, windowEnd: bucket.windowEnd }, now));
  if (!bucket.counted) {
    const retryAfterSeconds = retryAfter(bucket.windowEnd, now);
    throw new ApiError(429, `Rate limit exceeded: ${limit} ${category} requests per minute; retry in ${retryAfterSeconds} s`, {
      [HEADERS.retryAfter]: retryAfterHeader(options.variants, bucket.windowEnd, now),
    });
  }
}

/** The headers of a full bucket in a window opened now: what a game-origin request is shown where that variant plays. */
export function fullBucketHeaders(category: RateLimitCategory, now: number, options: ResolvedOptions): Record<string, string> {
  const { limit } = RATE_LIMITS[category];
  return rateLimitHeaders(
    options,
    { limit, remaining: limit, windowEnd: windowEndFor(now, rateLimitWindows(options.variants, options.rateLimitWindows)) },
    now,
  );
}

function rateLimitHeaders(options: ResolvedOptions, state: RateLimitState, now: number): Record<string, string> {
  return {
    [HEADERS.rateLimitLimit]: String(state.limit),
    [HEADERS.rateLimitRemaining]: String(state.remaining),
    [HEADERS.rateLimitReset]: resetHeader(options.variants, state.windowEnd, now),
  };
}
