import { COUNT_IN_BUCKET } from './redis-bucket-script.js';

/**
 * Reads everything one API request may touch in one round trip: the shared clock (KEYS[1]); with ARGV[3] = '1',
 * the token at the next key and its player; with ARGV[4] = '1', the player id of an email and its player (next
 * key) and that email's code and its outbox message (the key after). Player and message keys are built from
 * the prefixes ARGV[1] and ARGV[2] and what was read, which a single Redis (not a cluster) allows.
 * Returns {clock, token, token's player, email's player id, that player, code, code's message, counted ahead}, nil where absent.
 *
 * With a bucket prefix in ARGV[5], it also counts the request in the bucket of that prefix and ARGV[6] (the
 * token's player where empty) at ARGV[7] (now), with window end ARGV[8], limit ARGV[9] and grace ARGV[13], when
 * ARGV[10] is not '1' or the token is live and valid for its player; never when ARGV[11] = '1' and the clock is
 * not ARGV[12] ('' for none), as the time the count was made at would not be the request's.
 */
export const LOAD_RECORDS = `${COUNT_IN_BUCKET}
local players, messages = ARGV[1], ARGV[2]
local found = {redis.call('GET', KEYS[1]), false, false, false, false, false, false, false}
local key = 2
local token
if ARGV[3] == '1' then
  found[2] = redis.call('GET', KEYS[key])
  key = key + 1
  if found[2] then
    token = cjson.decode(found[2])
    found[3] = redis.call('GET', players .. token.playerId)
  end
end
if ARGV[4] == '1' then
  local id = redis.call('GET', KEYS[key])
  if id then
    found[4] = id
    found[5] = redis.call('GET', players .. id)
  end
  local code = redis.call('GET', KEYS[key + 1])
  if code then
    found[6] = code
    found[7] = redis.call('GET', messages .. string.format('%d', cjson.decode(code).messageId))
  end
end
if ARGV[5] ~= '' and (ARGV[11] ~= '1' or (found[1] or '') == ARGV[12]) then
  local now = tonumber(ARGV[7])
  local bucket = ARGV[6]
  local live = ARGV[10] ~= '1'
  if not live and found[3] then
    local player = cjson.decode(found[3])
    live = now < (token.expiresAt or 0) and (token.serial or 0) >= (player.firstValidTokenSerial or 0)
    if bucket == '' then bucket = token.playerId end
  end
  if live and bucket ~= '' then
    found[8] = countInBucket(ARGV[5] .. bucket, now, tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[13]))
  end
end
return found
`;
