import { isSuccess } from '../envelope.js';
import { sentAddress } from '../parameters.js';
import type { Knowledge } from '../index.js';
import { routeKeyOf } from '../rule.js';
import { type Exchange, isObject, issuedToken, stringField } from '../../common/exchange.js';
import type { TimeInterval } from '../model/server-time.js';
import { BoundedMap } from './bounded-map.js';

/** What the memory tells the rules of one request. */
export type AuthKnowledge = Pick<Knowledge, 'tokenExpiresAt' | 'registeredAt' | 'codeUsedBefore'>;

/** How many addresses and tokens the proxy remembers; beyond them the oldest are forgotten, never judged wrongly. */
const REMEMBERED = 100_000;

const codeOf = (email: string, requestBody: unknown) => `${email} ${isObject(requestBody) ? String(requestBody['otp']) : ''}`;

/**
 * What the server said of codes and tokens over a session, on its own clock: when each address last registered,
 * the codes that already verified, when each token expires. The rules judge with it (TOKEN-EXPIRY, VERIFY-REUSED,
 * OTP-EXPIRY): it is told of each request before its answer is judged, and learns from the answer after.
 */
export class AuthMemory {
  readonly #registeredAt = new BoundedMap<string, number>(REMEMBERED);
  readonly #usedCodes = new BoundedMap<string, true>(REMEMBERED);
  readonly #tokenExpiry = new BoundedMap<string, number>(REMEMBERED);

  /** What is known of a request before its answer: its token's expiry; for a verification, its address's registration and code. */
  knowledgeOf(method: string, path: string, token: string | undefined, requestBody: unknown): AuthKnowledge {
    const route = routeKeyOf(method, path);
    if (route === 'POST /api/auth/register') return {};
    const email = sentAddress(requestBody);
    if (route === 'POST /api/auth/verify-email') {
      if (email === undefined) return {};
      const registeredAt = this.#registeredAt.get(email);
      return { codeUsedBefore: this.#usedCodes.has(codeOf(email, requestBody)), ...(registeredAt === undefined ? {} : { registeredAt }) };
    }
    const tokenExpiresAt = token === undefined ? undefined : this.#tokenExpiry.get(token);
    return tokenExpiresAt === undefined ? {} : { tokenExpiresAt };
  }

  /** What an answer teaches: an accepted registration starts its codes afresh, an accepted verification uses its code and issues a token. */
  learn(method: string, path: string, requestBody: unknown, exchange: Exchange, serverTime: TimeInterval): void {
    const route = routeKeyOf(method, path);
    const email = sentAddress(requestBody);
    if (email === undefined || !isSuccess(exchange)) return;
    if (route === 'POST /api/auth/register') {
      this.#registeredAt.set(email, serverTime.toMs);
      // A new registration may send the same digits again: a code seen before proves nothing after it.
      for (const used of this.#usedCodes.keys()) if (used.startsWith(`${email} `)) this.#usedCodes.delete(used);
      return;
    }
    if (route !== 'POST /api/auth/verify-email') return;
    this.#usedCodes.set(codeOf(email, requestBody), true);
    const token = issuedToken(exchange);
    const expiresAt = Date.parse(stringField(exchange.body, 'expiresAt') ?? '');
    if (token !== undefined && !Number.isNaN(expiresAt)) this.#tokenExpiry.set(token, expiresAt);
  }
}
