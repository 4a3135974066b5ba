import { TOKEN_LIFETIME_MS } from '../../src/spec/limits.js';
import { ROUTES } from '../../src/spec/routes.js';
import { isSuccess } from '../envelope.js';
import { type Exchange, isObject } from '../exchange.js';
import { ISO_UTC, SIX_DIGITS, UUID } from '../formats.js';
import type { TimeInterval } from '../model/server-time.js';
import type { RuleId } from '../rules.js';

/** A departure of the server's answer, beyond the invariants and the rate limits. */
export interface AnswerDeparture {
  rule: RuleId;
  message: string;
}

const PROTECTED = new Set<string>(ROUTES.filter((route) => route.auth !== 'none').map((route) => `${route.method} ${route.path}`));
/** As the suite judges a token's lifetime without the target's clock: the Date header, or this machine's, give or take two minutes. */
const ISSUE_TOLERANCE_MS = 120_000;

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
    departures.push({ rule: 'OTP-LENGTH', message: `accepted the code ${JSON.stringify(otp.slice(0, 20))}, which is not 6 digits` });
  }
  return departures;
}

/**
 * What the server's answer to one of the table's routes gets wrong that only its request shows: a protected route
 * answered without a token, and a verification's token, its lifetime and the code it accepted.
 */
export function answerDepartures(
  method: string,
  path: string,
  requestHeaders: Readonly<Record<string, string>>,
  requestBody: unknown,
  exchange: Exchange,
  serverTime: TimeInterval,
): AnswerDeparture[] {
  const routeKey = `${method.toUpperCase()} ${path}`;
  if (PROTECTED.has(routeKey) && requestHeaders['authorization'] === undefined && isSuccess(exchange)) {
    return [{ rule: 'AUTH-401', message: `answered ${exchange.status} to a request without a token: expected 401` }];
  }
  if (routeKey === 'POST /api/auth/verify-email' && isSuccess(exchange)) return verifiedAnswer(exchange, requestBody, serverTime);
  return [];
}
