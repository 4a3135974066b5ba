/**
 * A Lua function that counts one request in the bucket at `key`, atomically on the server: opens a window ending
 * at `windowEnd` when none is live at `now` (on the mock's clock), counts unless `limit` are counted, and lets
 * Redis expire the bucket when its window ends (plus `graceMs`, so that a clock frozen or set back finds it live).
 * Returns {counted (0/1), count, windowEnd}.
 */
export const COUNT_IN_BUCKET = `
local function countInBucket(key, now, windowEnd, limit, graceMs)
  local bucket = redis.call('HMGET', key, 'count', 'windowEnd')
  local count = tonumber(bucket[1])
  local ending = tonumber(bucket[2])
  if count == nil or ending == nil or now >= ending then
    count = 0
    ending = windowEnd
  end
  local counted = 0
  if count < limit then
    count = count + 1
    counted = 1
  end
  redis.call('HSET', key, 'count', count, 'windowEnd', ending)
  redis.call('PEXPIRE', key, math.max(1, ending - now) + graceMs)
  return {counted, count, ending}
end
`;

/** Counts one request in the bucket KEYS[1] at ARGV[1] (now), with a window end ARGV[2], a limit ARGV[3] and a grace ARGV[4]. */
export const HIT_BUCKET = `${COUNT_IN_BUCKET}
return countInBucket(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
`;

/** How long past its window's end (on the mock's clock) Redis keeps a bucket. */
export const BUCKET_GRACE_MS = 10 * 60_000;
