import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS, type RateLimitCategory } from '../spec/limits.js';
import { ApiError } from './errors.js';
import type { RateLimitWindows } from './options.js';
import type { Bucket, Store } from './store.js';

interface RateLimitState {
  limit: number;
  remaining: number;
  windowEnd: number;
}

/** When a window opened by a request at `now` ends. */
function windowEndFor(now: number, windows: RateLimitWindows): number {
  return windows === 'first-hit' ? now + RATE_LIMIT_WINDOW_MS : Math.floor(now / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS + RATE_LIMIT_WINDOW_MS;
}

/** The bucket of (category, key) in its current window, opening a new window when the last one has ended. */
export function currentBucket(store: Store, category: RateLimitCategory, key: string, now: number, windows: RateLimitWindows): Bucket {
  const bucketKey = `${category}:${key}`;
  let bucket = store.buckets.get(bucketKey, now);
  if (bucket === undefined) {
    bucket = { windowEnd: windowEndFor(now, windows), count: 0 };
    store.buckets.set(bucketKey, bucket, bucket.windowEnd, now);
  }
  return bucket;
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
  windows: RateLimitWindows,
): void {
  const { limit } = RATE_LIMITS[category];
  const bucket = currentBucket(store, category, key, now, windows);
  const allowed = bucket.count < limit;
  if (allowed) bucket.count++;
  Object.assign(headers, rateLimitHeaders({ limit, remaining: limit - bucket.count, windowEnd: bucket.windowEnd }));
  if (!allowed) {
    const retryAfterSeconds = Math.max(1, Math.ceil((bucket.windowEnd - now) / 1000));
    throw new ApiError(429, `Rate limit exceeded: ${limit} ${category} requests per minute; retry in ${retryAfterSeconds} s`, {
      [HEADERS.retryAfter]: String(retryAfterSeconds),
    });
  }
}

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    [HEADERS.rateLimitLimit]: String(state.limit),
    [HEADERS.rateLimitRemaining]: String(state.remaining),
    // Unix epoch seconds of the window's end, as the public deployment sends it.
    [HEADERS.rateLimitReset]: String(Math.floor(state.windowEnd / 1000)),
  };
}
