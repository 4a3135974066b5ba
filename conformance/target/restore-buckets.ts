import type { RateLimitBucket } from '../../src/spec/control-schemas.js';
import { counted } from '../common/counted.js';
import { ControlRefusal, type RunControl } from './run-control.js';

const bucketKey = (bucket: RateLimitBucket) => `${bucket.category} ${bucket.key}`;
const bucketId = (bucket: RateLimitBucket) => `${bucketKey(bucket)} ${bucket.count} ${bucket.resetAt}`;

/**
 * Once the clock is back: every bucket the run filled is emptied, and every bucket it found and changed (or that
 * ended while the run moved the clock on) is set back as it was. A target whose control API cannot set a bucket
 * has those emptied instead, and the line says so.
 */
export async function restoreBuckets(control: RunControl, before: readonly RateLimitBucket[]): Promise<{ done?: string; left?: string }> {
  const foundKeys = new Set(before.map(bucketKey));
  const now = await control.buckets();
  const nowIds = new Set(now.map(bucketId));
  const filled = now.filter((bucket) => !foundKeys.has(bucketKey(bucket)));
  const changed = before.filter((bucket) => !nowIds.has(bucketId(bucket)));
  const clear = (bucket: RateLimitBucket) =>
    control.call('clearBuckets', `?category=${encodeURIComponent(bucket.category)}&key=${encodeURIComponent(bucket.key)}`);
  for (const bucket of filled) await clear(bucket);
  let notSet = 0;
  let setBack = 0;
  const { nowMs } = await control.call('clock');
  for (const { category, key, count, resetAt } of changed) {
    // One whose window has ended since has nothing left to count: it is as it would be without the run.
    if (Date.parse(resetAt) <= nowMs) continue;
    try {
      await control.call('setBucket', '', { category, key, count, resetAt });
      setBack++;
    } catch (error) {
      if (!(error instanceof ControlRefusal)) throw error;
      await clear({ category, key, count, resetAt } as RateLimitBucket);
      notSet++;
    }
  }
  const done = [
    filled.length === 0 ? '' : filled.length === 1 ? 'the bucket the run filled is empty again' : `the ${filled.length} buckets the run filled are empty again`,
    setBack === 0 ? '' : `${counted(setBack, 'bucket')} it found ${setBack === 1 ? 'is' : 'are'} as before`,
  ].filter((each) => each !== '');
  return {
    ...(done.length === 0 ? {} : { done: done.join('; ') }),
    ...(notSet === 0 ? {} : { left: `${counted(notSet, 'bucket')} the run changed, emptied: the target's control API cannot set one back` }),
  };
}
