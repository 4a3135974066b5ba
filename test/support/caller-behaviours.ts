import { randomUUID } from 'node:crypto';
import { HEADERS } from '../../src/spec/limits.js';
import type { Mutation, ProxyBehaviour } from './mutating-proxy.js';
import { RATE_LIMIT_HEADERS, SHIP, VERIFY, answer, isPost, isRefusal, objectBody, rewriteHeader } from './proxy-rewrites.js';

/**
 * Rules skipped for one kind of caller (a game client, a caller holding a token), as servers with a middleware per
 * kind of caller skip them; X-RateLimit-Reset's unit chosen per limiter, which is legal, beside a unit that changes
 * within one bucket, which is not; and an endpoint beyond the table on a path of it.
 */

export const CALLER_MUTATIONS: readonly Mutation[] = [
  {
    name: 'ship-gate-skipped-for-game-origin',
    breaks: 'SHIP-VERIFIED',
    does: "creates a ship for an unverified player when the request comes from the game origin (the verification gate sits in the external callers' middleware only)",
    apply: ({ request, response }) => {
      const error = objectBody(response)?.['error'];
      if (!isPost(request, SHIP) || !request.isGameOrigin || !isRefusal(response) || typeof error !== 'string' || !/verif/i.test(error)) return;
      answer(response, 200, { success: true, ship: { id: randomUUID(), name: 'Unverified' } }, { [HEADERS.actionPointsRemaining]: '60' });
    },
  },
  {
    name: 'auth-limit-skipped-with-token',
    breaks: 'RL-AUTH-IP',
    does: 'counts no register or verify-email request that carries a valid bearer token (a limiter that skips signed-in callers), without X-RateLimit-* on them',
    before: ({ request, ledger, memo }) => {
      if (request.category !== 'auth' || request.token === undefined || !ledger.tokens.has(request.token) || ledger.tokenExpired(request.token)) return;
      // Each such request reaches the upstream as from an address of its own, whose bucket nothing else spends.
      const next = memo('addresses', () => ({ count: 0 }));
      const index = next.count++;
      request.headers['x-forwarded-for'] = `100.${64 + ((index >> 16) & 63)}.${(index >> 8) & 255}.${index & 255}`;
    },
    apply: ({ request, response, ledger }) => {
      if (request.category !== 'auth' || request.token === undefined || !ledger.tokens.has(request.token)) return;
      for (const name of RATE_LIMIT_HEADERS) delete response.headers[name];
    },
  },
  {
    name: 'reset-unit-changes-within-a-bucket',
    breaks: 'RL-RESET',
    does: 'sends X-RateLimit-Reset in epoch milliseconds where Remaining is even, in epoch seconds where it is odd: no one unit within a bucket',
    apply: ({ response }) => {
      if (Number(response.headers[HEADERS.rateLimitRemaining]) % 2 === 0)
        rewriteHeader(response, HEADERS.rateLimitReset, (value) => String(Number(value) * 1000));
    },
  },
];

export const CALLER_VARIATIONS: readonly ProxyBehaviour[] = [
  {
    name: 'get-verify-link-endpoint',
    does: "also serves GET /api/auth/verify-email (an e-mail's link, beyond the table), answering it 400 {error} without its email and otp query parameters",
    before: ({ request }) => {
      const query = new URLSearchParams(request.search);
      if (request.method !== 'GET' || request.path !== VERIFY || (query.has('email') && query.has('otp'))) return undefined;
      return { status: 400, headers: {}, body: { error: 'The email and otp query parameters are required' } };
    },
  },
  {
    name: 'reset-unit-per-limiter',
    does: "sends X-RateLimit-Reset of the auth buckets as the seconds left in the window (a sign-in limiter of its own), the other buckets' as epoch seconds",
    apply: ({ request, response, now }) => {
      if (request.category !== 'auth') return;
      rewriteHeader(response, HEADERS.rateLimitReset, (value) => String(Math.max(0, Math.ceil((Number(value) * 1000 - now()) / 1000))));
    },
  },
];
