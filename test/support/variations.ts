import { randomUUID } from 'node:crypto';
import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { ProxyBehaviour, ResponseContext } from './mutating-proxy.js';
import { FRAMING_VARIATIONS } from './framing-behaviours.js';
import { CALLER_VARIATIONS } from './caller-behaviours.js';
import { ROUTES } from '../../src/spec/routes.js';
import { REGISTER, VERIFY, SHIP, answer, objectBody, requestBody, isPost, isRefusal, isSuccess, rewriteHeader } from './proxy-rewrites.js';

const SPEC_PATHS = new Set<string>(ROUTES.map((route) => route.path));

/** Legal variations: choices the spec leaves open, which the suite must accept. */

/** A disposable-domain email, a wrong, used or expired code, an unverified ship creation: statuses the spec does not show. */
function notShownCase({ request, response }: ResponseContext): boolean {
  if (!isRefusal(response)) return false;
  const body = requestBody(request);
  const error = objectBody(response)?.['error'];
  if (isPost(request, REGISTER)) return typeof error === 'string' && /disposable/i.test(error);
  if (isPost(request, VERIFY)) return typeof body?.['email'] === 'string' && typeof body['otp'] === 'string' && /^\d{6}$/.test(body['otp']);
  if (isPost(request, SHIP)) return typeof error === 'string' && /verif/i.test(error);
  return false;
}

/** Choices the spec leaves open (spec-silent.md, "What the suite must accept"): the suite must pass each. */
export const VARIATIONS: readonly ProxyBehaviour[] = [
  {
    name: 'unaltered',
    does: 'forwards everything unchanged: the baseline, so that no failure comes from the proxy itself',
  },
  ...FRAMING_VARIATIONS,
  ...CALLER_VARIATIONS,
  {
    name: 'reset-epoch-milliseconds',
    does: 'sends X-RateLimit-Reset as Unix epoch milliseconds',
    apply: ({ response }) => rewriteHeader(response, HEADERS.rateLimitReset, (value) => String(Number(value) * 1000)),
  },
  {
    name: 'reset-seconds-remaining',
    does: 'sends X-RateLimit-Reset as the seconds left in the window',
    apply: (ctx) => rewriteHeader(ctx.response, HEADERS.rateLimitReset, (value) => String(Math.max(0, Math.ceil((Number(value) * 1000 - ctx.now()) / 1000)))),
  },
  {
    name: 'retry-after-milliseconds',
    does: 'sends Retry-After in milliseconds',
    apply: ({ response }) => rewriteHeader(response, HEADERS.retryAfter, (value) => String(Number(value) * 1000)),
  },
  {
    name: 'numeric-otp-read-as-digits',
    does: 'reads a numeric otp as its digits (123456 as "123456") instead of refusing it, and answers a wrong code 401',
    // With 400 for a wrong code the digits would read as the refusal of an invalid parameter: 401 tells them apart.
    upstream: { variants: ['wrong-code-401'] },
    before: ({ request }) => {
      const body = requestBody(request);
      if (isPost(request, VERIFY) && body !== undefined && typeof body['otp'] === 'number') {
        request.body = JSON.stringify({ ...body, otp: String(body['otp']).padStart(6, '0') });
      }
      return undefined;
    },
  },
  {
    name: 'register-message-own-words',
    does: 'says in its own words that a code was sent ("Check your inbox: we sent you a one-time code")',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, REGISTER) && isSuccess(response) && body !== undefined) body['message'] = 'Check your inbox: we sent you a one-time code';
    },
  },
  {
    name: 'register-message-passcode-emailed',
    does: 'says it without the words code, sent or verification ("A one-time passcode has been e-mailed to you")',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, REGISTER) && isSuccess(response) && body !== undefined) body['message'] = 'A one-time passcode has been e-mailed to you';
    },
  },
  {
    name: 'retry-after-minutes',
    does: 'sends Retry-After in whole minutes, rounded up (1 for any wait up to a minute)',
    apply: ({ response }) => rewriteHeader(response, HEADERS.retryAfter, (value) => String(Math.max(1, Math.ceil(Number(value) / 60)))),
  },
  {
    name: 'retry-after-whole-window',
    does: 'sends Retry-After 60 on every 429, the whole window, however soon the window ends',
    apply: ({ response }) => rewriteHeader(response, HEADERS.retryAfter, () => String(RATE_LIMIT_WINDOW_MS / 1000)),
  },
  {
    name: 'not-shown-status-422',
    does: 'answers 422 instead of 400/403 where the spec shows no status (disposable email, wrong/used/expired code, unverified ship creation)',
    apply: (ctx) => {
      if (notShownCase(ctx)) ctx.response.status = 422;
    },
  },
  {
    name: 'extra-body-fields',
    does: 'adds requestId and servedBy to every JSON body, success and error alike',
    apply: ({ response }) => {
      const body = objectBody(response);
      if (body !== undefined) Object.assign(body, { requestId: randomUUID(), servedBy: 'mutating-proxy' });
    },
  },
  {
    name: 'expires-at-without-milliseconds',
    does: 'sends expiresAt without milliseconds ("2030-01-08T00:00:00Z")',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, VERIFY) && typeof body?.['expiresAt'] === 'string') body['expiresAt'] = body['expiresAt'].replace(/\.\d+Z$/, 'Z');
    },
  },
  {
    name: 'ratelimit-headers-on-exempt',
    does: 'sends X-RateLimit-* (a full bucket) on exempt game-origin responses too',
    apply: ({ request, response, now }) => {
      if (!request.isGameOrigin || request.category === undefined || !RATE_LIMITS[request.category].exemptForGameOrigins) return;
      if (response.headers[HEADERS.rateLimitLimit] !== undefined) return;
      const { limit } = RATE_LIMITS[request.category];
      Object.assign(response.headers, {
        [HEADERS.rateLimitLimit]: String(limit),
        [HEADERS.rateLimitRemaining]: String(limit),
        [HEADERS.rateLimitReset]: String(Math.floor((now() + RATE_LIMIT_WINDOW_MS) / 1000)),
      });
    },
  },
  {
    name: 'nextrefill-in-minutes',
    does: 'sends X-ActionPoints-NextRefill in minutes (rounded up)',
    apply: ({ response }) => rewriteHeader(response, HEADERS.actionPointsNextRefill, (value) => String(Math.ceil(Number(value) / 60))),
  },
  {
    name: 'health-without-success',
    does: 'answers /health with {status, version} only, as the Health response table shows it',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (request.path === '/health' && body !== undefined) delete body['success'];
    },
  },
  {
    name: 'windows-on-clock-minutes',
    does: "starts rate-limit windows on clock minutes instead of at each key's first request (an upstream option, no rewriting)",
    upstream: { rateLimitWindows: 'clock-minute' },
  },
  {
    name: 'unlimited-wrong-codes',
    does: 'sets no limit on wrong code attempts (an upstream option, no rewriting)',
    upstream: { maxWrongOtpAttempts: 0 },
  },

  // Choices of the public deployment (spec-silent.md), each a class of false alarm met against a real deployment.
  {
    name: 'auth-before-routing',
    does: 'checks the bearer token before routing: an unknown path without a valid token answers 401',
    before: ({ request, ledger }) => {
      if (SPEC_PATHS.has(request.path)) return;
      if (request.token !== undefined && ledger.tokens.has(request.token) && !ledger.tokenExpired(request.token)) return;
      return { status: 401, headers: {}, body: { error: 'Authentication required' } };
    },
  },
  {
    name: 'health-any-method',
    does: 'answers /health with 200 {status, version} whatever the method',
    apply: ({ request, response }) => {
      if (request.path !== '/health' || request.method === 'GET' || response.status !== 405) return;
      delete response.headers['allow'];
      answer(response, 200, { status: 'ok', version: '0.1.0' });
    },
  },
  shipPayloadOfItsOwn('ship-payload-galaxy', 'the suite is not told the payload, so the checks that need a ship skip as inconclusive', {}),
  shipPayloadOfItsOwn('ship-payload-galaxy-given', 'the suite is given the payload with --ship-payload', {
    shipPayload: '{"galaxyId":1,"shipName":"Conformance"}',
  }),
  {
    name: 'reregistration-revokes-token',
    does: "revokes an address's current token when the address registers again (until the new code is verified)",
    seesControl: true,
    before: ({ request, memo }) => {
      if (request.token !== undefined && memo('revoked', () => new Set<string>()).has(request.token))
        return { status: 401, headers: {}, body: { error: 'Invalid or expired token' } };
    },
    apply: ({ request, response, memo }) => {
      const tokens = memo('tokens by email', () => new Map<string, string[]>());
      const email = requestBody(request)?.['email'];
      if (typeof email !== 'string' || !isSuccess(response)) return;
      const key = email.trim().toLowerCase();
      const token = objectBody(response)?.['authToken'];
      if (typeof token === 'string') tokens.set(key, [...(tokens.get(key) ?? []), token]);
      if (!request.isControl && isPost(request, REGISTER)) for (const revoked of tokens.get(key) ?? []) memo('revoked', () => new Set<string>()).add(revoked);
    },
  },
  {
    name: 'wrong-code-401',
    does: 'answers 401 to a wrong, expired or used code',
    apply: (ctx) => {
      if (isPost(ctx.request, VERIFY) && notShownCase(ctx)) ctx.response.status = 401;
    },
  },
  {
    name: 'client-ip-cf-connecting-ip',
    does: 'reads the client address from CF-Connecting-IP, not X-Forwarded-For (the suite is given --client-ip-header CF-Connecting-IP)',
    target: { clientIpHeader: 'CF-Connecting-IP' },
    before: ({ request }) => {
      request.headers['x-forwarded-for'] = request.headers['cf-connecting-ip'] ?? request.clientIp;
    },
  },
];

/**
 * A ship payload `{galaxyId, shipName}`, validated before the verification check: any other payload answers 400.
 * The upstream (whose payload is `{name}`) still counts the request: a refused payload reaches it as an empty name.
 */
function shipPayloadOfItsOwn(name: string, suite: string, target: ProxyBehaviour['target']): ProxyBehaviour {
  const refusedMark = 'x-refused-payload';
  return {
    name,
    does: `takes a ship payload {galaxyId, shipName}, validated before the verification check; ${suite}`,
    ...(target === undefined ? {} : { target }),
    before: ({ request }) => {
      if (!isPost(request, SHIP)) return;
      const body = requestBody(request);
      const galaxyId = body?.['galaxyId'];
      const shipName = body?.['shipName'];
      const valid = (typeof galaxyId === 'number' || typeof galaxyId === 'string') && typeof shipName === 'string' && shipName.trim() !== '';
      request.body = JSON.stringify({ name: valid ? shipName : '' });
      if (!valid) request.headers[refusedMark] = '1';
    },
    apply: ({ request, response }) => {
      if (request.headers[refusedMark] === undefined || response.status === 401 || response.status === 429) return;
      answer(response, 400, { error: 'galaxyId and shipName are required' });
    },
  };
}
