import { COUNT_IN_BUCKET } from './redis-bucket-script.js';

/** Which bucket of a precount the load script counted in, when not the admitted one: the unauthorized one. */
export const UNAUTHORIZED = 2;

/** What a request of LOAD_RECORDS reads, its first argument: nothing, its token, the records of an email, or both. */
export const READS = { nothing: '0', token: '1', email: '2', both: '3' } as const;

/** A request's second argument of LOAD_RECORDS: it counts nothing, counts with the count arguments that follow, or with the last ones. */
export const COUNTS = { nothing: '', following: '+', asBefore: '=' } as const;

/** Values of the answer of LOAD_RECORDS per request, after the clock (its first value). */
export const LOAD_ANSWER_STRIDE = 10;

/**
 * Reads everything the API requests of one turn may touch, in one call. KEYS[1] is the shared clock; ARGV[1] and
 * ARGV[2] are the player and message key prefixes, ARGV[3] the bucket grace. Then each request in turn adds its keys
 * and its arguments (a cursor walks them, as a request's count arguments are often left out):
 *
 * - R, what it reads (READS): with a token, its key is the request's next key, and the script reads its player too;
 *   with an email, the next key is the email's player id (its player is read too) and the one after the email's code
 *   (with its outbox message).
 * - C (COUNTS): '' counts nothing; '+' is followed by the count's own arguments; '=' counts with those of the last
 *   request that had them. The count's arguments: needs a token ('1' or ''); the admitted bucket's key prefix, key
 *   (the token's player where empty) and limit; the unauthorized one's three; and the clock check: '' where the clock
 *   is not shared, else '=' followed by the clock the process last saw ('' for none).
 * - with a count (C not ''), the request's instant and its window end.
 *
 * The count is the one the request's admission plan makes (a Precount), at its instant with its window end: where the
 * request needs no token or its token is live and still valid for its player, in the admitted bucket; otherwise in
 * the unauthorized one; nowhere for an empty prefix, and never when the clock is shared and not as last seen, as the
 * time the count was made at would not be the request's. Whether the token is live is all it decides: the plan says
 * the rest. Player and message keys are built from the prefixes and what was read, which a single Redis (not a
 * cluster) allows.
 *
 * Returns the clock, then per request LOAD_ANSWER_STRIDE values: token, token's player, email's player id, that
 * player, code, code's message, then, where it counted, whether it did (1 or 0), the count and the window end, and
 * the bucket (1 or UNAUTHORIZED); false where absent. The script reads the clock once, as nothing in it moves it.
 */
export const LOAD_RECORDS = `${COUNT_IN_BUCKET}
local players, messages, grace = ARGV[1], ARGV[2], tonumber(ARGV[3])
local clock = redis.call('GET', KEYS[1])
local seen = clock or ''
local results = {clock}
local last = 1
local key, arg, argc = 2, 4, #ARGV
local counting, needsToken, admitted, admittedKey, admittedLimit, unauthorized, unauthorizedKey, unauthorizedLimit
while arg <= argc do
  local reads, counts = ARGV[arg], ARGV[arg + 1]
  arg = arg + 2
  local tokenText, player, emailId, emailPlayer, code, message = false, false, false, false, false, false
  local counted, count, ending, which = false, false, false, false
  local token
  if reads == '${READS.token}' or reads == '${READS.both}' then
    tokenText = redis.call('GET', KEYS[key])
    key = key + 1
    if tokenText then
      token = cjson.decode(tokenText)
      player = redis.call('GET', players .. token.playerId)
    end
  end
  if reads == '${READS.email}' or reads == '${READS.both}' then
    emailId = redis.call('GET', KEYS[key])
    if emailId then emailPlayer = redis.call('GET', players .. emailId) end
    code = redis.call('GET', KEYS[key + 1])
    if code then message = redis.call('GET', messages .. string.format('%d', cjson.decode(code).messageId)) end
    key = key + 2
  end
  if counts ~= '${COUNTS.nothing}' then
    if counts == '${COUNTS.following}' then
      needsToken = ARGV[arg] == '1'
      admitted, admittedKey, admittedLimit = ARGV[arg + 1], ARGV[arg + 2], ARGV[arg + 3]
      unauthorized, unauthorizedKey, unauthorizedLimit = ARGV[arg + 4], ARGV[arg + 5], ARGV[arg + 6]
      local check = ARGV[arg + 7]
      counting = (admitted ~= '' or unauthorized ~= '') and (check == '' or check == '=' .. seen)
      arg = arg + 8
    end
    local now = tonumber(ARGV[arg])
    local windowEnd = ARGV[arg + 1]
    arg = arg + 2
    if counting then
      local live = not needsToken
      if not live and player then
        local found = cjson.decode(player)
        live = now < (token.expiresAt or 0) and (token.serial or 0) >= (found.firstValidTokenSerial or 0)
      end
      local prefix, bucket, limit = admitted, admittedKey, admittedLimit
      which = 1
      if not live then prefix, bucket, limit, which = unauthorized, unauthorizedKey, unauthorizedLimit, ${UNAUTHORIZED} end
      if prefix ~= '' then
        if bucket == '' then bucket = token.playerId end
        local hit = countInBucket(prefix .. bucket, now, tonumber(windowEnd), tonumber(limit), grace)
        counted, count, ending = hit[1], hit[2], hit[3]
      else
        which = false
      end
    end
  end
  results[last + 1], results[last + 2], results[last + 3], results[last + 4], results[last + 5] = tokenText, player, emailId, emailPlayer, code
  results[last + 6], results[last + 7], results[last + 8], results[last + 9], results[last + 10] = message, counted, count, ending, which
  last = last + ${LOAD_ANSWER_STRIDE}
end
return results
`;
