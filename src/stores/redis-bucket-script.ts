/**
 * Counts one request in a bucket, atomically on the server: opens a window ending at ARGV[2] when none is
 * live at ARGV[1] (now, on the mock's clock), counts unless ARGV[3] are counted, and lets Redis expire the
 * bucket when its window ends (plus ARGV[4] ms, so that a clock frozen or set back finds it live).
 * Returns {counted (0/1), count, windowEnd}.
 */
export const HIT_BUCKET = `
local now = tonumber(ARGV[1])
local bucket = redis.call('HMGET', KEYS[1], 'count', 'windowEnd')
local count = tonumber(bucket[1])
local windowEnd = tonumber(bucket[2])
if count == nil or windowEnd == nil or now >= windowEnd then
  count = 0
  windowEnd = tonumber(ARGV[2])
end
local counted = 0
if count < tonumber(ARGV[3]) then
  count = count + 1
  counted = 1
end
redis.call('HSET', KEYS[1], 'count', count, 'windowEnd', windowEnd)
redis.call('PEXPIRE', KEYS[1], math.max(1, windowEnd - now) + tonumber(ARGV[4]))
return {counted, count, windowEnd}
`;

/** How long past its window's end (on the mock's clock) Redis keeps a bucket. */
export const BUCKET_GRACE_MS = 10 * 60_000;
