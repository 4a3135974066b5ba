import { COUNT_IN_BUCKET } from './redis-bucket-script.js';

/** Arguments each request adds to the load script, after the shared ones (see LOAD_RECORDS). */
export const LOAD_ARGUMENTS_PER_REQUEST = 13;

/** Which bucket of a precount the load script counted in, when not the admitted one: the unauthorized one. */
export const UNAUTHORIZED = 2;

/**
 * Reads everything the API requests of one turn may touch, in one call: the shared ARGV are the player and message
 * key prefixes (ARGV[1], ARGV[2]) and the bucket grace (ARGV[3]); each request then adds LOAD_ARGUMENTS_PER_REQUEST
 * arguments (A[1…13] below, in order) and its keys. For each request: the shared clock (its first key); with
 * A[1] = '1', the token at the next key and its player; with A[2] = '1', the player id of an email and its player
 * (next key) and that email's code and its outbox message (the key after). Player and message keys are built from
 * the prefixes and what was read, which a single Redis (not a cluster) allows.
 * Returns, per request, {clock, token, token's player, email's player id, that player, code, code's message,
 * counted ahead, which bucket}, nil where absent.
 *
 * It also makes the count the request's admission plan makes (a Precount), at A[4] (now) with window end A[5]: where
 * the request needs no token (A[3] is not '1') or its token is live and still valid for its player, in the admitted
 * bucket (key prefix A[6], key A[7], the token's player where empty, limit A[8]); otherwise in the unauthorized one
 * (A[9], A[10], A[11]); nowhere for an empty prefix, and never when A[12] = '1' and the clock is not A[13] ('' for
 * none), as the time the count was made at would not be the request's. Which bucket it counted in is 1 or UNAUTHORIZED.
 * Whether the token is live is all it decides: the plan says the rest.
 */
export const LOAD_RECORDS = `${COUNT_IN_BUCKET}
local players, messages, grace = ARGV[1], ARGV[2], tonumber(ARGV[3])
local function load(key, A)
  local found = {redis.call('GET', KEYS[key]), false, false, false, false, false, false, false, false}
  key = key + 1
  local token
  if A(1) == '1' then
    found[2] = redis.call('GET', KEYS[key])
    key = key + 1
    if found[2] then
      token = cjson.decode(found[2])
      found[3] = redis.call('GET', players .. token.playerId)
    end
  end
  if A(2) == '1' then
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
    key = key + 2
  end
  if (A(6) ~= '' or A(9) ~= '') and (A(12) ~= '1' or (found[1] or '') == A(13)) then
    local now = tonumber(A(4))
    local live = A(3) ~= '1'
    if not live and found[3] then
      local player = cjson.decode(found[3])
      live = now < (token.expiresAt or 0) and (token.serial or 0) >= (player.firstValidTokenSerial or 0)
    end
    local prefix, bucket, limit, which = A(6), A(7), A(8), 1
    if not live then prefix, bucket, limit, which = A(9), A(10), A(11), ${UNAUTHORIZED} end
    if prefix ~= '' then
      if bucket == '' then bucket = token.playerId end
      found[8] = countInBucket(prefix .. bucket, now, tonumber(A(5)), tonumber(limit), grace)
      found[9] = which
    end
  end
  return found, key
end
local results = {}
local key = 1
for request = 1, (#ARGV - 3) / ${LOAD_ARGUMENTS_PER_REQUEST} do
  local first = 3 + (request - 1) * ${LOAD_ARGUMENTS_PER_REQUEST}
  results[request], key = load(key, function(index) return ARGV[first + index] end)
end
return results
`;
