import { TOKEN_LIFETIME_MS } from '../../src/spec/limits.js';
import { isSuccess } from './envelope.js';
import { issuedToken } from '../common/exchange.js';
import { UUID } from './formats.js';
import { REFRESH_ROUTE_KEYS, refreshRoute } from './refresh-probes.js';
import { bearerToken, PROTECTED_ROUTES, authorizationOf } from './bearer.js';
import { dueOk, judged, type Rule, routeKey, SERVER_CLOCK_SLACK_MS } from './rule.js';
import { acceptedVerification, expiresAtOf, VERIFY_ROUTE } from './verify.js';

/**
 * How far expiresAt may lie from 7 days after the answer: the server's clock is read from its Date header (a whole
 * second, which a front end may set from a clock of its own) or this machine's, give or take two minutes; read
 * through a control API, it is known to the millisecond, give or take a second.
 */
const TOKEN_LIFETIME_TOLERANCE_MS = 120_000;
const READ_CLOCK_TOLERANCE_MS = 1_000;
const DAY_MS = 86_400_000;

/** The bearer token: its lifetime, its expiry, the 401 without one, and no refresh. */
export const TOKEN_RULES = [
  {
    id: 'TOKEN-LIFETIME',
    side: 'server',
    quote: 'The token expires after 7 days; expiresAt states the moment.',
    sentences: ['AUTH-TOKEN-LIFETIME', 'LIM-TOKEN-LIFETIME', 'RES-VERIFIED-EXPIRES', 'STATE-TOKEN-ISSUED'],
    proxy: 'expiresAt 7 days after the answer that issued the token',
    // knowledge.serverTime: when the token was issued, as closely as the judge can tell.
    routes: VERIFY_ROUTE,
    judge(exchange, knowledge) {
      const body = acceptedVerification(exchange, knowledge);
      const expires = body === undefined ? undefined : expiresAtOf(body);
      if (expires === undefined) return [];
      const { serverTime } = knowledge;
      const toleranceMs = knowledge.serverClockRead === true ? READ_CLOCK_TOLERANCE_MS : TOKEN_LIFETIME_TOLERANCE_MS;
      const earliest = serverTime.fromMs + TOKEN_LIFETIME_MS - toleranceMs;
      const latest = serverTime.toMs + TOKEN_LIFETIME_MS + toleranceMs;
      const days = ((expires - serverTime.fromMs) / DAY_MS).toFixed(3);
      return [
        judged(
          'seven-days',
          expires >= earliest && expires <= latest,
          `expiresAt between ${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()}: 7 days after the token was issued, ± ${toleranceMs / 1000} s`,
          `expiresAt ${String(body?.['expiresAt'])} is ${days} days after the answer, not 7`,
        ),
      ];
    },
  },
  // Judged over a session: the token's expiresAt comes as knowledge (rules/session/auth-memory.ts derives it for the proxy and a check run's traffic).
  {
    id: 'TOKEN-EXPIRY',
    side: 'server',
    quote: 'Verified with active token → 7 days since token issue → Token expired: Token no longer accepted.',
    sentences: ['STATE-TOKEN-EXPIRED', 'AUTH-TOKEN-LIFETIME', 'LIM-TOKEN-LIFETIME', 'STATE-TOKEN-ISSUED', 'AUTH-TOKEN-401'],
    proxy: 'no token accepted after its expiresAt',
    session: ['tokenExpiresAt'],
    judge(exchange, { tokenExpiresAt, tokenIssuedAt, serverTime, shaped }) {
      // A check's request with a token certainly not yet 7 days old (issued at its earliest) is due its answer.
      if (shaped === true && tokenIssuedAt !== undefined && serverTime.toMs < tokenIssuedAt.fromMs + TOKEN_LIFETIME_MS)
        return [dueOk(exchange, 'a token not yet 7 days old')];
      if (tokenExpiresAt === undefined || !isSuccess(exchange) || serverTime.fromMs <= tokenExpiresAt + SERVER_CLOCK_SLACK_MS) return [];
      return [
        judged(
          'expired',
          false,
          'a token refused after its expiresAt',
          `accepted a token at ${new Date(serverTime.fromMs).toISOString()}, after its expiresAt ${new Date(tokenExpiresAt).toISOString()}`,
        ),
      ];
    },
  },
  {
    id: 'AUTH-401',
    side: 'server',
    quote: 'A missing or invalid token yields status 401.',
    sentences: ['AUTH-TOKEN-401', 'ERR-STATUS-401', 'EP-PLAYER', 'EP-SHIP', 'AUTH-STEP-BEARER'],
    proxy: 'a 401 on a protected route of the table without a token, or with one that is not even a UUID',
    routes: PROTECTED_ROUTES,
    judge(exchange, knowledge) {
      const { status } = exchange;
      if (!PROTECTED_ROUTES.has(routeKey(exchange, knowledge))) return [];
      // Credentials the sender knows are not honoured: nothing but a 401 answers them.
      if (knowledge.refusedCredentials !== undefined)
        return [judged('refused', status === 401, `status 401 (${knowledge.refusedCredentials})`, `answered ${status} to ${knowledge.refusedCredentials}`)];
      // A server error or a spent limit may come first.
      if (status >= 500 || status === 429) return [];
      if (authorizationOf(exchange.requestHeaders) === undefined)
        return [judged('no-token', status === 401, 'status 401 without a token', `answered ${status} to a request without a token: expected 401`)];
      const token = bearerToken(exchange.requestHeaders);
      if (token !== undefined && !UUID.test(token))
        return [
          judged(
            'not-uuid',
            status === 401,
            'status 401 for a token that is not a UUID',
            `answered ${status} to a token that is not even a UUID: expected 401`,
          ),
        ];
      return [];
    },
  },
  {
    id: 'TOKEN-NO-REFRESH',
    side: 'server',
    quote: 'There is no refresh operation; a new token is obtained by registering the same email again and verifying the new code.',
    sentences: ['AUTH-NO-REFRESH', 'STATE-NO-REFRESH'],
    proxy: 'no new authToken from where a refresh operation would plausibly be',
    routes: REFRESH_ROUTE_KEYS,
    judge(exchange, knowledge) {
      if (!refreshRoute(exchange.method, knowledge.path)) return [];
      const refreshed = isSuccess(exchange) && issuedToken(exchange) !== undefined;
      return [
        judged(
          'no-refresh',
          !refreshed,
          'no new token from a refresh request',
          `answered ${exchange.status} with an authToken: a refresh operation, where the spec says there is none`,
        ),
        // Where the sender tried the tokens the answer carried, in whatever field: none may be one the API accepts.
        ...(knowledge.refreshedTokenAccepted === undefined
          ? []
          : [
              judged(
                'no-working-token',
                !knowledge.refreshedTokenAccepted,
                'no token from a refresh request that the API accepts',
                `answered ${exchange.status} with a token that GET /api/player then accepted: a refresh operation, where the spec says there is none`,
              ),
            ]),
      ];
    },
  },
] as const satisfies readonly Rule[];
