import { TOKEN_LIFETIME_MS } from '../../src/spec/limits.js';
import { ROUTES } from '../../src/spec/routes.js';
import { isSuccess } from '../envelope.js';
import { type Exchange, isObject } from '../exchange.js';
import { ISO_UTC, SIX_DIGITS, UUID } from '../formats.js';
import { DISPOSABLE_DOMAINS } from '../generators.js';
import type { TimeInterval } from '../model/server-time.js';
import { refreshRoute } from '../refresh-probes.js';
import { SAYS_CODE_WAS_SENT, saysCodeWasSent } from '../register-message.js';
import type { RuleId } from '../rules.js';
import { bearerToken, PROTECTED_ROUTES } from './bearer.js';
import type { RequestDeparture } from './client-requests.js';

/** A departure of the server's answer, beyond the invariants and the rate limits. */
export interface AnswerDeparture {
  rule: RuleId;
  message: string;
}

/** What the judge knows of the request an answer is to: its body as parsed, and what the client got wrong in it. */
export interface AnsweredRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  body: unknown;
  departures: readonly RequestDeparture[];
}

/**
 * The paths whose other methods must be refused 405, as the suite's routing check probes them: those of the routes
 * that need no token. On a player's path another method may be an endpoint beyond the table ("not shown"), whose
 * 404 says the player's resource does not exist (GET /api/player/ship before a ship is made).
 */
const TOKENLESS_PATHS = new Set<string>(ROUTES.filter((route) => route.auth === 'none').map((route) => route.path));
const TABLE_ROUTES = new Set<string>(ROUTES.map((route) => `${route.method} ${route.path}`));
/** As the suite judges a token's lifetime without the target's clock: the Date header, or this machine's, give or take two minutes. */
const ISSUE_TOLERANCE_MS = 120_000;
const DOTTED_VERSION = /^\d+\.\d+\.\d+$/;
/** The client departures (client-requests.ts) that leave a required parameter out. */
const MISSING = / is missing|not an object|is not JSON/;

function verifiedAnswer(exchange: Exchange, requestBody: unknown, serverTime: TimeInterval): AnswerDeparture[] {
  const body = exchange.body;
  if (!isObject(body)) return [];
  const departures: AnswerDeparture[] = [];
  const { authToken, expiresAt } = body;
  if (typeof authToken !== 'string' || !UUID.test(authToken)) departures.push({ rule: 'VERIFY-OK', message: 'authToken is not in UUID format' });
  const expires = typeof expiresAt === 'string' && ISO_UTC.test(expiresAt) ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(expires)) departures.push({ rule: 'VERIFY-OK', message: `expiresAt ${JSON.stringify(expiresAt)} is not an ISO 8601 UTC timestamp` });
  else {
    const earliest = serverTime.fromMs + TOKEN_LIFETIME_MS - ISSUE_TOLERANCE_MS;
    const latest = serverTime.toMs + TOKEN_LIFETIME_MS + ISSUE_TOLERANCE_MS;
    if (expires < earliest || expires > latest) {
      const days = ((expires - serverTime.fromMs) / 86_400_000).toFixed(3);
      departures.push({ rule: 'TOKEN-LIFETIME', message: `expiresAt ${expiresAt} is ${days} days after the answer, not 7` });
    }
  }
  const otp = isObject(requestBody) ? requestBody['otp'] : undefined;
  if (typeof otp === 'string' && !SIX_DIGITS.test(otp)) {
    departures.push({
      rule: 'OTP-LENGTH',
      message: `accepted a code of ${otp.length} characters${/^\d*$/.test(otp) ? ' (digits)' : ''}, where codes are 6 digits`,
    });
  }
  return departures;
}

function healthAnswer(exchange: Exchange): AnswerDeparture[] {
  if (exchange.status === 401 || exchange.status === 403)
    return [{ rule: 'HEALTH-NOAUTH', message: `answered ${exchange.status}: the health endpoint requires no authentication` }];
  if (exchange.status !== 200 || !isObject(exchange.body)) return [];
  const { status, version } = exchange.body;
  const departures: AnswerDeparture[] = [];
  if (status !== 'ok') departures.push({ rule: 'HEALTH-BODY', message: `a 200 whose status is ${JSON.stringify(status)}, not "ok"` });
  if (typeof version !== 'string' || !DOTTED_VERSION.test(version))
    departures.push({ rule: 'HEALTH-BODY', message: `version ${JSON.stringify(version)} is not <major>.<minor>.<patch>` });
  return departures;
}

/** An accepted registration: its message, and an address the spec says must be refused. */
function registeredAnswer(exchange: Exchange, requestBody: unknown): AnswerDeparture[] {
  const email = isObject(requestBody) && typeof requestBody['email'] === 'string' ? requestBody['email'] : undefined;
  const departures: AnswerDeparture[] = [];
  const message = isObject(exchange.body) ? exchange.body['message'] : undefined;
  if (typeof message !== 'string' || !saysCodeWasSent(message, email))
    departures.push({ rule: 'REG-OK', message: `message ${JSON.stringify(message)}: expected ${SAYS_CODE_WAS_SENT}` });
  if (email === undefined) return departures;
  const domain = email.split('@').at(-1)?.toLowerCase() ?? '';
  if (!email.includes('@') || /\s/.test(email.trim()))
    departures.push({ rule: 'REG-INVALID', message: `accepted ${JSON.stringify(email)}, which is no email address` });
  else if ((DISPOSABLE_DOMAINS as readonly string[]).includes(domain)) {
    departures.push({ rule: 'REG-DISPOSABLE', message: `accepted an address at ${domain}, a disposable domain` });
  }
  return departures;
}

/** A request missing what the spec requires, answered as if it were complete, or with a server error. */
function refusedParameters(exchange: Exchange, request: AnsweredRequest, rule: 'REG-MISSING' | 'VERIFY-MISSING'): AnswerDeparture[] {
  const incomplete = request.departures.some((departure) => MISSING.test(departure.message));
  // A field of another type may be read leniently (a numeric otp), never answered with a server error.
  const invalid = incomplete || request.departures.some((departure) => / is .+, not a string$/.test(departure.message));
  if (incomplete && isSuccess(exchange)) return [{ rule, message: `answered ${exchange.status} to a request missing a required parameter: expected 400` }];
  if (invalid && exchange.status >= 500)
    return [{ rule, message: `answered ${exchange.status} to a request with a missing or invalid parameter: expected 400, not a server error` }];
  return [];
}

/**
 * What the server's answer to a route gets wrong that its request shows: a protected route answered without a
 * valid token, health, a registration or verification accepted that must be refused, a method of a tokenless table
 * path answered 404, a refresh operation where the spec says there is none.
 */
export function answerDepartures(request: AnsweredRequest, exchange: Exchange, serverTime: TimeInterval): AnswerDeparture[] {
  const { method, path, headers, body } = request;
  const routeKey = `${method.toUpperCase()} ${path}`;
  const token = bearerToken(headers);
  if (PROTECTED_ROUTES.has(routeKey) && exchange.status < 500 && exchange.status !== 401 && exchange.status !== 429) {
    if (headers['authorization'] === undefined)
      return [{ rule: 'AUTH-401', message: `answered ${exchange.status} to a request without a token: expected 401` }];
    if (token !== undefined && !UUID.test(token))
      return [{ rule: 'AUTH-401', message: `answered ${exchange.status} to a token that is not even a UUID: expected 401` }];
  }
  if (TOKENLESS_PATHS.has(path) && !TABLE_ROUTES.has(routeKey) && exchange.status === 404) {
    return [{ rule: 'ERR-405', message: `answered 404 to ${method} on ${path}, a path of the table: expected 405` }];
  }
  if (refreshRoute(method, path) && isSuccess(exchange) && isObject(exchange.body) && typeof exchange.body['authToken'] === 'string') {
    return [{ rule: 'TOKEN-NO-REFRESH', message: `answered ${exchange.status} with an authToken: a refresh operation, where the spec says there is none` }];
  }
  if (routeKey === 'GET /health') return healthAnswer(exchange);
  if (routeKey === 'POST /api/auth/register') {
    const missing = refusedParameters(exchange, request, 'REG-MISSING');
    return missing.length > 0 || !isSuccess(exchange) ? missing : registeredAnswer(exchange, body);
  }
  if (routeKey === 'POST /api/auth/verify-email') {
    const missing = refusedParameters(exchange, request, 'VERIFY-MISSING');
    return missing.length > 0 || !isSuccess(exchange) ? missing : verifiedAnswer(exchange, body, serverTime);
  }
  return [];
}
