import { RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { MutationContext } from './mutating-proxy.js';

/** A bucket the proxy counts itself, where a mutation counts otherwise than the upstream. */
export interface ProxyBucket {
  windowEnd: number;
  count: number;
}

/** Counts one request in the proxy's bucket `key` of the group `name`, opening a new window when the last one ended. */
export function countInProxyBucket(ctx: MutationContext, name: string, key: string): ProxyBucket {
  const buckets = ctx.memo(name, () => new Map<string, ProxyBucket>());
  const bucket = buckets.get(key) ?? { windowEnd: 0, count: 0 };
  buckets.set(key, bucket);
  // A window ending more than a window ahead was opened before a run set the clock back, and emptied the upstream's buckets.
  const stale = bucket.windowEnd - ctx.now() > RATE_LIMIT_WINDOW_MS;
  if (ctx.now() >= bucket.windowEnd || stale) Object.assign(bucket, { windowEnd: ctx.now() + RATE_LIMIT_WINDOW_MS, count: 0 });
  bucket.count++;
  return bucket;
}
