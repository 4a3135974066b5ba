import { HEADERS, RATE_LIMITS } from '../../src/spec/limits.js';
import { type Exchange, integerHeader } from '../common/exchange.js';
import { bearerToken } from './bearer.js';
import { judged, type Judgement, type Knowledge, type RuleSession } from './rule.js';
import { BoundedMap } from './session/bounded-map.js';

/** The size of the buckets the spec exempts game origins from (gameplay, authenticated reads, public reads). */
const EXEMPT_BUCKET_SIZES = new Set<number>(
  Object.values(RATE_LIMITS)
    .filter((limit) => limit.exemptForGameOrigins)
    .map((limit) => limit.limit),
);
/** And the size of those that stay limited for every caller: an answer of this size may be theirs. */
const LIMITED_BUCKET_SIZES = new Set<number>(
  Object.values(RATE_LIMITS)
    .filter((limit) => !limit.exemptForGameOrigins)
    .map((limit) => limit.limit),
);

const REMEMBERED_OWNERS = 100_000;

/** What one answer of a caller showed of its bucket, and whether its request came from a game origin. */
interface Shown {
  gameOrigin: boolean;
  remaining: number;
  limit: number;
  reset: string | undefined;
}

/**
 * Game origins "are not counted against the gameplay, authenticated-read or public buckets", so whatever
 * rate-limit headers their answers carry, the count cannot fall across them. Two answers in a row of one
 * caller's bucket (its token's, or its address's without one; GETs apart from other methods), both to a game
 * origin, of a bucket the size of an exempt one, in one window, with Remaining exactly one less
 * on the second: the server counted the second. Any other request of that caller between them seen by the session
 * breaks the pair, so an external request counted in the same bucket is never taken for the game origin's.
 */
export class GameOriginCounts implements RuleSession {
  readonly #last = new BoundedMap<string, Shown>(REMEMBERED_OWNERS);

  /** RL-EXEMPT's judgement of an answer of the API to a caller the session knows, where a pair shows a count. */
  observe(exchange: Exchange, knowledge: Knowledge): Judgement[] {
    const { caller, path } = knowledge;
    if (caller === undefined) return [];
    const counted = this.#departure(exchange.method, path, bearerToken(exchange.requestHeaders), caller.ip, caller.gameOrigin, exchange);
    return counted === undefined ? [] : [judged('game-origin-uncounted', false, "Remaining that does not fall across a game origin's requests", counted)];
  }

  /** The departure an answer shows, if any. `path` an API path without its query; `token` the bearer token sent. */
  #departure(method: string, path: string, token: string | undefined, clientIp: string, gameOrigin: boolean, exchange: Exchange): string | undefined {
    // Registration and verification stay limited by IP for every caller.
    if (path.startsWith('/api/auth/')) return undefined;
    const owner = `${method.toUpperCase() === 'GET' ? 'read' : 'write'} ${token === undefined ? `ip ${clientIp}` : `token ${token}`}`;
    const remaining = integerHeader(exchange, HEADERS.rateLimitRemaining);
    const limit = integerHeader(exchange, HEADERS.rateLimitLimit);
    const before = this.#last.get(owner);
    if (remaining === undefined || limit === undefined || exchange.status === 401 || exchange.status >= 500) {
      // An answer that shows nothing still breaks a pair: the server may have counted it.
      this.#last.delete(owner);
      return undefined;
    }
    const shown: Shown = { gameOrigin, remaining, limit, reset: exchange.headers[HEADERS.rateLimitReset] };
    this.#last.set(owner, shown);
    if (!gameOrigin || before === undefined || !before.gameOrigin) return undefined;
    if (!EXEMPT_BUCKET_SIZES.has(limit) || LIMITED_BUCKET_SIZES.has(limit) || before.limit !== limit) return undefined;
    // A window opened afresh shows limit - 1, which is one less only than a full bucket: then the same Reset must say it is one window.
    if (before.remaining >= limit && before.reset !== shown.reset) return undefined;
    if (remaining !== before.remaining - 1) return undefined;
    return `X-RateLimit-Remaining fell from ${before.remaining} to ${remaining} across two requests of a game origin in one window: the server counted a game origin's request, which the spec exempts`;
  }

  forget(): void {
    this.#last.clear();
  }
}
