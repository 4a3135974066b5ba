import { randomInt } from 'node:crypto';
import { OTP_LIFETIME_MS } from '../../src/spec/limits.js';
import { DISPOSABLE_DOMAINS } from '../../conformance/rules/register.js';
import { COMMON_CODES } from '../../conformance/fixtures/wrong-codes.js';
import type { Mutation } from './mutating-proxy.js';
import { REGISTER, VERIFY, answer, isPost, isRefusal, isSuccess, objectBody, requestBody } from './proxy-rewrites.js';

/**
 * Servers that let a stranger in: they hand the code back, take a fixed code, deliver a code for an address they
 * refused, tell one address from itself by the letter case of its domain, or take a token with a byte more.
 */

const OUTBOX = '/__mock/outbox';
const TOKEN_LENGTH = 36;
/** The code a test build takes for any address with a code pending: the first fixed code VERIFY-WRONG tries in every mode. */
const [FIXED_CODE] = COMMON_CODES;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
const isDisposable = (email: string) => (DISPOSABLE_DOMAINS as readonly string[]).includes(domainOf(email).trim().toLowerCase());

/** One code of this server's own, delivered where the upstream delivered none. */
interface OwnDelivery {
  email: string;
  code: string;
  issuedAt: number;
}

export const SECRECY_MUTATIONS: readonly Mutation[] = [
  {
    name: 'register-answer-carries-code',
    breaks: 'REG-OK',
    does: 'hands the code it delivered back in the register answer, as a field otp beside success and message',
    apply: ({ request, response, ledger }) => {
      const body = objectBody(response);
      const email = requestBody(request)?.['email'];
      const delivered = typeof email === 'string' ? ledger.latestOtp(email) : undefined;
      if (isPost(request, REGISTER) && isSuccess(response) && body !== undefined && delivered !== undefined) body['otp'] = delivered.code;
    },
  },
  {
    name: 'fixed-code-verifies',
    breaks: 'VERIFY-WRONG',
    does: `takes ${FIXED_CODE} for any address with a code pending (a test code left in the build)`,
    before: ({ request, ledger }) => {
      const body = requestBody(request);
      if (!isPost(request, VERIFY) || typeof body?.['email'] !== 'string' || body['otp'] !== FIXED_CODE) return undefined;
      const pending = ledger.latestOtp(body['email']);
      if (pending !== undefined && !ledger.codeExpired(pending)) request.body = JSON.stringify({ ...body, otp: pending.code });
      return undefined;
    },
  },
  {
    name: 'code-delivered-for-refused-address',
    breaks: 'REG-DISPOSABLE',
    does: 'emails a code before it looks at the domain: a refused disposable-domain registration still delivers one',
    // The upstream mock refuses before it delivers, and nothing through the proxy can make it deliver for an address it
    // refuses; so this server keeps the deliveries of its own and shows them where the mock shows what it emailed, its
    // outbox (the control API), beside the upstream's. No code of the upstream's is altered.
    seesControl: true,
    apply: ({ request, response, now, memo }) => {
      const own = memo('own deliveries', () => [] as OwnDelivery[]);
      const email = requestBody(request)?.['email'];
      if (isPost(request, REGISTER) && isRefusal(response) && typeof email === 'string' && isDisposable(email)) {
        own.unshift({ email: email.trim().toLowerCase(), code: String(randomInt(1_000_000)).padStart(6, '0'), issuedAt: now() });
        return;
      }
      const messages = objectBody(response)?.['messages'];
      if (!request.isControl || request.method !== 'GET' || request.path !== OUTBOX || !Array.isArray(messages)) return;
      const wanted = new URLSearchParams(request.search).get('email')?.trim().toLowerCase();
      const shown = own.filter((delivery) => wanted === undefined || delivery.email === wanted);
      messages.unshift(
        ...shown.map(({ email: address, code, issuedAt }) => ({
          email: address,
          code,
          issuedAt: new Date(issuedAt).toISOString(),
          expiresAt: new Date(issuedAt + OTP_LIFETIME_MS).toISOString(),
          state: 'pending',
        })),
      );
    },
  },
  {
    name: 'domain-case-another-address',
    breaks: 'VERIFY-BOUND',
    does: 'compares addresses by the letter case of their domain: a verification of player@EXAMPLE.COM for player@example.com is refused 400',
    apply: ({ request, response, memo }) => {
      const registeredAs = memo('registered as', () => new Map<string, string>());
      const email = requestBody(request)?.['email'];
      if (typeof email !== 'string' || !isSuccess(response)) return;
      const key = email.trim().toLowerCase();
      if (isPost(request, REGISTER)) registeredAs.set(key, email.trim());
      const registered = registeredAs.get(key);
      if (isPost(request, VERIFY) && registered !== undefined && domainOf(registered) !== domainOf(email.trim()))
        answer(response, 400, { error: 'No valid code for this email' });
    },
  },
  {
    name: 'token-with-suffix-accepted',
    breaks: 'AUTH-401',
    does: `reads only the first ${TOKEN_LENGTH} characters of a bearer token: a real token with anything after it is taken`,
    before: ({ request, ledger }) => {
      const { token } = request;
      if (token !== undefined && token.length > TOKEN_LENGTH && ledger.tokens.has(token.slice(0, TOKEN_LENGTH)))
        request.headers['authorization'] = `Bearer ${token.slice(0, TOKEN_LENGTH)}`;
      return undefined;
    },
  },
];
