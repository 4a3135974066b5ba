import { OTP_LIFETIME_MS } from '../../src/spec/limits.js';
import { isSuccess } from '../rules/envelope.js';
import { type Exchange, isObject } from '../target/exchange.js';
import type { TimeInterval } from '../model/server-time.js';
import { BoundedMap } from './bounded-map.js';
import type { RuleId } from '../rules/index.js';

/** A departure of the server's that its answers over a session show. */
export interface AnswerDeparture {
  rule: RuleId;
  message: string;
}

/** How many addresses and tokens the proxy remembers; beyond them the oldest are forgotten, never judged wrongly. */
const REMEMBERED = 100_000;
/** The Date header's whole second, and rounding on the server's side. */
const SLACK_MS = 2_000;

const field = (body: unknown, name: string) => (isObject(body) && typeof body[name] === 'string' ? (body[name] as string) : undefined);

/**
 * What the server said of codes and tokens over a session, on its own clock: when each address last registered,
 * the codes that already verified, when each token expires. A code used twice, a code used 15 minutes after the
 * last registration, and a token used after its expiresAt are the server's departures.
 */
export class AuthMemory {
  readonly #registeredAt = new BoundedMap<string, number>(REMEMBERED);
  readonly #usedCodes = new BoundedMap<string, true>(REMEMBERED);
  readonly #tokenExpiry = new BoundedMap<string, number>(REMEMBERED);

  judge(method: string, path: string, token: string | undefined, requestBody: unknown, exchange: Exchange, serverTime: TimeInterval): AnswerDeparture[] {
    const routeKey = `${method.toUpperCase()} ${path}`;
    const email = field(requestBody, 'email')?.trim().toLowerCase();
    if (routeKey === 'POST /api/auth/register' && isSuccess(exchange) && email !== undefined) {
      this.#registeredAt.set(email, serverTime.toMs);
      // A new registration may send the same digits again: a code seen before proves nothing after it.
      for (const used of this.#usedCodes.keys()) if (used.startsWith(`${email} `)) this.#usedCodes.delete(used);
      return [];
    }
    if (routeKey === 'POST /api/auth/verify-email' && isSuccess(exchange) && email !== undefined)
      return this.#verified(email, requestBody, exchange, serverTime);
    const expiresAt = token === undefined ? undefined : this.#tokenExpiry.get(token);
    if (expiresAt !== undefined && isSuccess(exchange) && serverTime.fromMs > expiresAt + SLACK_MS) {
      return [
        {
          rule: 'TOKEN-EXPIRY',
          message: `accepted a token at ${new Date(serverTime.fromMs).toISOString()}, after its expiresAt ${new Date(expiresAt).toISOString()}`,
        },
      ];
    }
    return [];
  }

  #verified(email: string, requestBody: unknown, exchange: Exchange, serverTime: TimeInterval): AnswerDeparture[] {
    const departures: AnswerDeparture[] = [];
    const otp = isObject(requestBody) ? String(requestBody['otp']) : '';
    const code = `${email} ${otp}`;
    if (this.#usedCodes.has(code))
      departures.push({ rule: 'VERIFY-REUSED', message: `accepted a code for ${email} again, with no registration since its first use` });
    this.#usedCodes.set(code, true);
    const registeredAt = this.#registeredAt.get(email);
    if (registeredAt !== undefined && serverTime.fromMs > registeredAt + OTP_LIFETIME_MS + SLACK_MS) {
      const minutes = ((serverTime.fromMs - registeredAt) / 60_000).toFixed(1);
      departures.push({ rule: 'OTP-EXPIRY', message: `accepted a code for ${email} ${minutes} minutes after its last registration: codes are valid for 15` });
    }
    const token = field(exchange.body, 'authToken');
    const expiresAt = Date.parse(field(exchange.body, 'expiresAt') ?? '');
    if (token !== undefined && !Number.isNaN(expiresAt)) this.#tokenExpiry.set(token, expiresAt);
    return departures;
  }
}
