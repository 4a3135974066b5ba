/**
 * Reads everything one API request may touch in one round trip: the shared clock (KEYS[1]); with ARGV[3] = '1',
 * the token at the next key and its player; with ARGV[4] = '1', the player id of an email and its player (next
 * key) and that email's code and its outbox message (the key after). Player and message keys are built from
 * the prefixes ARGV[1] and ARGV[2] and what was read, which a single Redis (not a cluster) allows.
 * Returns {clock, token, token's player, email's player id, that player, code, code's message}, nil where absent.
 */
export const LOAD_RECORDS = `
local players, messages = ARGV[1], ARGV[2]
local found = {redis.call('GET', KEYS[1]), false, false, false, false, false, false}
local key = 2
if ARGV[3] == '1' then
  local token = redis.call('GET', KEYS[key])
  key = key + 1
  if token then
    found[2] = token
    found[3] = redis.call('GET', players .. cjson.decode(token).playerId)
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
return found
`;
