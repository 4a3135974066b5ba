import { HEADERS, RATE_LIMIT_WINDOW_MS, RATE_LIMITS } from '../../src/spec/limits.js';
import { categoryOf, isCounted } from './model/rate-limit-model.js';
import { inferResetUnit, resetProblem, windowEndFor } from './model/reset-unit.js';
import { consistentWithWindow, describeRetryAfter, readRetryAfter } from './model/retry-after.js';
import { span } from './model/server-time.js';
import { header, integerHeader } from '../common/exchange.js';
import type { Exchange } from '../common/exchange.js';
import { countedAsShaped } from './bucket-count.js';
import { GameOriginCounts } from './game-origin-counts.js';
import { modelledRemaining, modelledResetReading, modelledRetryAfter, modelledStatus, modelledWindowEnd } from './modelled-limits.js';
import { type Judge, judged, type Judgement, type Knowledge, type Rule, routeKey, TABLE_ROUTES } from './rule.js';

/**
 * "Responses to external callers carry these headers": judged on the table's routes, 429s and refusals included;
 * not on a 401 (which bucket a request without a valid token falls in is not shown) nor on a server error.
 */
function mustCarryRateLimitHeaders(exchange: Exchange, knowledge: Knowledge): boolean {
  return knowledge.external && TABLE_ROUTES.has(routeKey(exchange, knowledge)) && exchange.status !== 401 && exchange.status < 500;
}

/** An X-RateLimit-* header: present where it must be, an integer wherever it is. */
function rateLimitHeader(name: string, presentAspect: string, integerAspect: string): Judge {
  return (exchange, knowledge): Judgement[] => {
    const present = header(exchange, name) !== undefined;
    return [
      ...(mustCarryRateLimitHeaders(exchange, knowledge) ? [judged(presentAspect, present, `${name} on a response to an external caller`)] : []),
      ...(present ? [judged(integerAspect, integerHeader(exchange, name) !== undefined, `${name} as an integer`)] : []),
    ];
  };
}

// The judges the rules below combine, made once: the proxy judges every exchange it passes.
const remainingHeader = rateLimitHeader(HEADERS.rateLimitRemaining, 'remaining-present', 'remaining-integer');
const resetHeader = rateLimitHeader(HEADERS.rateLimitReset, 'reset-present', 'reset-integer');
const remainingCounted = countedAsShaped('RL-REMAINING');
const spentCounted = countedAsShaped('RL-429');
const windowCounted = countedAsShaped('RL-WINDOW');
const authIpCounted = countedAsShaped('RL-AUTH-IP');
const exemptCounted = countedAsShaped('RL-EXEMPT');

/**
 * Where a check collected the Reset values of the bucket its 429 ends (resetSamples): Retry-After, read in the unit
 * that makes it the wait to the window's end those values name (else alone), asks for no more than the window.
 */
function withinWindow(exchange: Exchange, retryAfter: number | undefined, knowledge: Knowledge): Judgement[] {
  const samples = knowledge.resetSamples;
  if (samples === undefined || retryAfter === undefined) return [];
  const inference = inferResetUnit(samples);
  const reset = integerHeader(exchange, HEADERS.rateLimitReset) ?? samples.at(-1)?.value;
  const at = knowledge.serverTime;
  const expectedWait = inference.kind !== 'unit' || reset === undefined ? undefined : span(at, windowEndFor(inference.unit, reset, at));
  const reading = readRetryAfter(retryAfter, expectedWait);
  const within = reading !== undefined && consistentWithWindow(reading);
  const read = reading === undefined ? 'in no unit' : `as ${describeRetryAfter(retryAfter, reading)}`;
  return [judged('retry-after-window', within, `a Retry-After within the ${RATE_LIMIT_WINDOW_MS / 1000} s window (read ${read})`)];
}

/**
 * "X-RateLimit-Limit (integer, bucket size)": where it is sent on a table route whose bucket counts the caller, the
 * size the Limits table gives that bucket. Not on a server error, nor on a 401 to a player's route (no player's
 * bucket counted it); a game origin's exempt buckets are not judged.
 */
function limitIsBucketSize(exchange: Exchange, knowledge: Knowledge): Judgement[] {
  const limit = integerHeader(exchange, HEADERS.rateLimitLimit);
  if (limit === undefined || exchange.status >= 500) return [];
  const category = categoryOf(exchange.method, knowledge.path);
  if (category === undefined || !isCounted(category, !knowledge.external)) return [];
  const { limit: size, scope } = RATE_LIMITS[category];
  if (exchange.status === 401 && scope === 'player') return [];
  return [
    judged(
      'limit-size',
      limit === size,
      `X-RateLimit-Limit: ${size} (the ${category} bucket size)`,
      `X-RateLimit-Limit ${limit}, but the ${category} bucket holds ${size}`,
    ),
  ];
}

const limitJudge = rateLimitHeader(HEADERS.rateLimitLimit, 'limit-present', 'limit-integer');

/** The Limits section: the headers, the 429, the windows and who is counted; the fuzzer's model judges most of them. */
export const RATE_LIMIT_RULES = [
  {
    id: 'RL-LIMIT',
    side: 'server',
    quote: 'X-RateLimit-Limit (integer, bucket size)',
    sentences: ['LIM-HEADER-LIMIT', 'LIM-HEADERS', 'LIM-AUTH', 'LIM-GAMEPLAY', 'LIM-READS', 'LIM-PUBLIC', 'EP-CATEGORIES'],
    fuzz: 'X-RateLimit-Limit present on counted requests and equal to the bucket size',
    proxy: 'X-RateLimit-Limit on answers to external callers, an integer, equal to the bucket size',
    judge: (exchange, knowledge) => [...limitJudge(exchange, knowledge), ...limitIsBucketSize(exchange, knowledge)],
  },
  {
    id: 'RL-REMAINING',
    side: 'server',
    quote: 'X-RateLimit-Remaining (integer, requests left)',
    sentences: ['LIM-HEADER-REMAINING', 'LIM-HEADERS'],
    fuzz: 'X-RateLimit-Remaining one less per counted request, per bucket',
    proxy: 'X-RateLimit-Remaining on answers to external callers, an integer, one less per counted request',
    judge(exchange, knowledge) {
      const judgements = [
        ...remainingHeader(exchange, knowledge),
        // One less per counted request, as a check counted them (bucketCount) or the session's model follows them.
        ...remainingCounted(exchange, knowledge),
        ...modelledRemaining(exchange, knowledge),
      ];
      const limit = knowledge.bucketLimit;
      if (limit === undefined) return judgements;
      const remaining = integerHeader(exchange, HEADERS.rateLimitRemaining);
      const inRange = remaining !== undefined && remaining >= 0 && remaining < limit;
      return [...judgements, judged('remaining-in-range', inRange, `${HEADERS.rateLimitRemaining} as an integer from 0 to ${limit - 1}`)];
    },
  },
  {
    id: 'RL-RESET',
    side: 'server',
    quote: 'X-RateLimit-Reset (integer, a timestamp-like value, unit unspecified)',
    sentences: ['LIM-HEADER-RESET', 'LIM-HEADERS'],
    fuzz: 'X-RateLimit-Reset present, in one unit per bucket category throughout the run',
    proxy: 'X-RateLimit-Reset on answers to external callers, an integer in one unit per bucket category',
    judge(exchange, knowledge) {
      const judgements = [...resetHeader(exchange, knowledge), ...modelledResetReading('RL-RESET', knowledge)];
      const samples = knowledge.resetSamples;
      if (samples === undefined) return judgements;
      // A window longer than the minute is RL-WINDOW's: here, only whether one unit reads every value.
      const broken = resetProblem(samples);
      const unreadable = broken?.rule === 'RL-RESET' ? broken.problem : undefined;
      return [...judgements, judged('one-unit', unreadable === undefined, unreadable ?? 'X-RateLimit-Reset in one unit on every response of the category')];
    },
  },
  {
    id: 'RL-429',
    side: 'server',
    quote: 'When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified).',
    sentences: ['LIM-429', 'ERR-STATUS-429', 'LIM-GAMEPLAY', 'LIM-READS', 'LIM-PUBLIC'],
    fuzz: "Retry-After on every 429, an integer consistent with the window's end",
    proxy: "Retry-After on every 429, an integer consistent with the window's end",
    judge(exchange, knowledge) {
      // A bucket a check spent is due its 429 (bucketCount); every 429, its Retry-After.
      const spent = spentCounted(exchange, knowledge);
      if (exchange.status !== 429) return spent;
      const retryAfter = integerHeader(exchange, HEADERS.retryAfter);
      return [
        ...spent,
        judged('429-retry-after', retryAfter !== undefined && retryAfter >= 0, 'Retry-After as a non-negative integer on a 429'),
        ...withinWindow(exchange, retryAfter, knowledge),
        ...modelledRetryAfter(exchange, knowledge),
      ];
    },
  },
  {
    id: 'RL-WINDOW',
    side: 'server',
    quote: 'Auth (register, verify): 5 requests per IP per minute; Reads: 60 requests per player per minute.',
    sentences: ['LIM-429', 'LIM-AUTH', 'LIM-READS', 'LIM-GAMEPLAY', 'EP-CATEGORIES'],
    fuzz: "a 429 exactly when the model's bucket is spent, success where no limit applies, and Reset ending the window the model opened",
    proxy: "a 429 exactly when the model's bucket is spent",
    session: ['bucketCount', 'shaped', 'modelledAnswer'],
    judge(exchange, knowledge) {
      const counted = [
        ...windowCounted(exchange, knowledge),
        ...modelledStatus('RL-WINDOW', exchange, knowledge),
        ...modelledResetReading('RL-WINDOW', knowledge),
        ...modelledWindowEnd(exchange, knowledge),
      ];
      // A check's counted response, alone: the window its Reset names ends within the minute, in whatever unit it reads.
      const reset = knowledge.shaped === true ? integerHeader(exchange, HEADERS.rateLimitReset) : undefined;
      if (reset === undefined) return counted;
      const broken = resetProblem([{ value: reset, at: knowledge.serverTime }]);
      const long = broken?.rule === 'RL-WINDOW' ? broken.problem : undefined;
      return [...counted, judged('window-a-minute', long === undefined, long ?? 'a window of a minute, as X-RateLimit-Reset names it')];
    },
  },
  {
    id: 'RL-AUTH-IP',
    side: 'server',
    quote: 'Registration, verification and admin routes stay limited by IP for every caller.',
    sentences: ['LIM-AUTH-EVERY-CALLER', 'LIM-AUTH'],
    fuzz: 'a game-origin auth request is counted in its IP bucket and refused 429 once it is spent',
    proxy: 'a game-origin auth request is counted in its IP bucket and refused 429 once it is spent',
    session: ['bucketCount', 'modelledAnswer'],
    judge: (exchange, knowledge) => [...authIpCounted(exchange, knowledge), ...modelledStatus('RL-AUTH-IP', exchange, knowledge)],
  },
  {
    id: 'RL-PER-PLAYER',
    side: 'server',
    quote: 'Reads (authenticated GET): 60 requests per player per minute.',
    sentences: ['LIM-READS'],
    session: ['bucketCount'],
    judge: countedAsShaped('RL-PER-PLAYER'),
  },
  {
    id: 'RL-EXEMPT',
    side: 'server',
    quote:
      'Requests from the official game client origins and other configured game origins are not counted against the gameplay, authenticated-read or public buckets.',
    sentences: ['LIM-GAME-ORIGINS', 'SVC-GAME-ORIGINS', 'LIM-GAMEPLAY', 'LIM-READS', 'LIM-PUBLIC'],
    fuzz: 'no 429 for a game-origin request in an exempt bucket',
    proxy: "no 429 for a game-origin request in an exempt bucket, and no fall of Remaining across a game origin's requests",
    session: ['bucketCount', 'modelledAnswer', 'caller'],
    judge: (exchange, knowledge) => [...exemptCounted(exchange, knowledge), ...modelledStatus('RL-EXEMPT', exchange, knowledge)],
    // Whether a game origin's requests were counted shows across two of its answers.
    opens: () => new GameOriginCounts(),
  },
] as const satisfies readonly Rule[];
