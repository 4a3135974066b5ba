import { randomUUID } from 'node:crypto';
import { HEADERS, RATE_LIMITS } from '../../src/spec/limits.js';
import { GAME_ORIGIN, type Mutation, type MutationContext } from './mutating-proxy.js';
import { AUTH_LIMITER_MUTATIONS } from './auth-limiter-mutations.js';
import { FRAMING_MUTATIONS } from './framing-behaviours.js';
import { CALLER_MUTATIONS } from './caller-behaviours.js';
import { SECRECY_MUTATIONS } from './secrecy-mutations.js';
import { READ_LIMITER_MUTATIONS } from './read-limiter-mutations.js';
import { countInProxyBucket } from './proxy-bucket.js';
import { DISPOSABLE_DOMAINS } from '../../conformance/rules/register.js';
import {
  REGISTER,
  VERIFY,
  SHIP,
  RATE_LIMIT_HEADERS,
  objectBody,
  requestBody,
  isPost,
  isSuccess,
  isRefusal,
  answer,
  forgedToken,
  registered,
  secondsToReset,
  bucketKey,
  rewriteHeader,
  type Body,
} from './proxy-rewrites.js';

/** Broken servers: each mutation breaks exactly one rule of the spec, so the suite must fail, and fail that rule's check. */
export const MUTATIONS: readonly Mutation[] = [
  // Auth limiters of the server's own, written as real ones are
  ...AUTH_LIMITER_MUTATIONS,
  // Read limiters of the server's own, written as real ones are
  ...READ_LIMITER_MUTATIONS,
  // Requests and answers framed as real stacks frame them
  ...FRAMING_MUTATIONS,
  // Rules skipped for one kind of caller
  ...CALLER_MUTATIONS,
  // Servers that let a stranger in: codes and tokens given away or taken loosely
  ...SECRECY_MUTATIONS,
  // Rate-limit headers and 429s
  {
    name: 'no-ratelimit-limit',
    breaks: 'RL-LIMIT',
    does: 'drops X-RateLimit-Limit from every response',
    apply: ({ response }) => void delete response.headers[HEADERS.rateLimitLimit],
  },
  {
    name: 'ratelimit-limit-plus-one',
    breaks: 'RL-LIMIT',
    does: 'reports a bucket one larger than it is (6 for auth, 61 for reads)',
    apply: ({ response }) => rewriteHeader(response, HEADERS.rateLimitLimit, (value) => String(Number(value) + 1)),
  },
  {
    name: 'remaining-never-decreases',
    breaks: 'RL-REMAINING',
    does: 'reports X-RateLimit-Remaining equal to the limit on every response, 429s included',
    apply: ({ response }) => {
      const limit = response.headers[HEADERS.rateLimitLimit];
      if (limit !== undefined && response.headers[HEADERS.rateLimitRemaining] !== undefined) response.headers[HEADERS.rateLimitRemaining] = limit;
    },
  },
  {
    name: 'reset-as-date',
    breaks: 'RL-RESET',
    does: 'sends X-RateLimit-Reset as an ISO 8601 date instead of an integer',
    apply: ({ response }) => rewriteHeader(response, HEADERS.rateLimitReset, (value) => new Date(Number(value) * 1000).toISOString()),
  },
  {
    name: 'reset-a-quarter-hour-ahead',
    breaks: 'RL-WINDOW',
    does: 'sends X-RateLimit-Reset for a window of 15 minutes (epoch seconds 14 minutes later than the minute it counts)',
    apply: ({ response }) => rewriteHeader(response, HEADERS.rateLimitReset, (value) => String(Number(value) + 14 * 60)),
  },
  {
    name: 'no-ratelimit-headers-on-refusals',
    breaks: 'RL-LIMIT',
    does: "drops X-RateLimit-* from refusals of the spec's routes (429s, refused registrations and codes), keeping them on successes",
    apply: ({ request, response }) => {
      if (request.isControl || request.category === undefined || response.status < 400 || response.status === 401) return;
      for (const name of RATE_LIMIT_HEADERS) delete response.headers[name];
    },
  },
  {
    name: 'no-retry-after',
    breaks: 'RL-429',
    does: 'answers 429 without Retry-After',
    apply: ({ response }) => void delete response.headers[HEADERS.retryAfter],
  },
  {
    name: 'retry-after-decimal',
    breaks: 'RL-429',
    does: 'sends Retry-After as a decimal number of seconds ("29.5")',
    apply: ({ response }) => rewriteHeader(response, HEADERS.retryAfter, (value) => `${Math.max(0, Number(value) - 1)}.5`),
  },
  {
    name: 'retry-after-an-hour',
    breaks: 'RL-429',
    does: 'sends Retry-After 3600000: an hour in milliseconds, longer than the one-minute window in any unit',
    apply: ({ response }) => rewriteHeader(response, HEADERS.retryAfter, () => '3600000'),
  },
  {
    name: '429-one-request-early',
    breaks: 'RL-WINDOW',
    does: 'refuses the last request of each bucket (the 5th auth, the 60th read): the limit is one less than stated',
    apply: (ctx) => {
      const { response } = ctx;
      if (!isSuccess(response) || response.headers[HEADERS.rateLimitRemaining] !== '0') return;
      answer(response, 429, { error: 'Rate limit exceeded' }, { [HEADERS.retryAfter]: String(secondsToReset(ctx, response)) });
    },
  },
  {
    name: 'window-never-resets',
    breaks: 'RL-WINDOW',
    does: 'keeps answering 429 for 30 minutes once a bucket ran out, with the stale Reset and Retry-After of the first 429',
    before: (ctx) => {
      const key = bucketKey(ctx.request);
      const blocked = ctx.memo('blocked', () => new Map<string, { until: number; headers: Record<string, string> }>());
      const entry = key === undefined ? undefined : blocked.get(key);
      if (entry === undefined || ctx.now() >= entry.until) return;
      return { status: 429, headers: { ...entry.headers }, body: { error: 'Rate limit exceeded' } };
    },
    apply: (ctx) => {
      const key = bucketKey(ctx.request);
      const blocked = ctx.memo('blocked', () => new Map<string, { until: number; headers: Record<string, string> }>());
      if (key === undefined || ctx.response.status !== 429) return;
      const headers: Record<string, string> = {};
      for (const name of [...RATE_LIMIT_HEADERS, HEADERS.retryAfter]) {
        const value = ctx.response.headers[name];
        if (value !== undefined) headers[name] = value;
      }
      if (!((blocked.get(key)?.until ?? 0) > ctx.now())) blocked.set(key, { until: ctx.now() + 30 * 60_000, headers });
    },
  },
  {
    name: 'shared-read-bucket',
    breaks: 'RL-PER-PLAYER',
    does: "counts every player's authenticated reads in one bucket of 60 a minute",
    apply: (ctx) => {
      const { request, response } = ctx;
      if (request.category !== 'read' || request.isGameOrigin || response.status === 401) return;
      const bucket = countInProxyBucket(ctx, 'shared', 'all players');
      const { limit } = RATE_LIMITS.read;
      const headers = {
        [HEADERS.rateLimitLimit]: String(limit),
        [HEADERS.rateLimitRemaining]: String(Math.max(0, limit - bucket.count)),
        [HEADERS.rateLimitReset]: String(Math.floor(bucket.windowEnd / 1000)),
      };
      Object.assign(response.headers, headers);
      if (bucket.count > limit) {
        const retryAfter = String(Math.max(1, Math.ceil((bucket.windowEnd - ctx.now()) / 1000)));
        answer(response, 429, { error: 'Rate limit exceeded' }, { [HEADERS.retryAfter]: retryAfter });
      }
    },
  },
  {
    name: 'reads-spend-public-bucket',
    breaks: 'RL-WINDOW',
    does: "counts a client's authenticated reads in its public bucket too, as one bucket of 60 a minute",
    apply: (ctx) => {
      const { request, response } = ctx;
      if ((request.category !== 'public' && request.category !== 'read') || request.isGameOrigin || request.isControl || response.status === 401) return;
      const bucket = countInProxyBucket(ctx, 'public-and-read', request.clientIp);
      if (request.category === 'public' && response.headers[HEADERS.rateLimitRemaining] !== undefined) {
        response.headers[HEADERS.rateLimitRemaining] = String(Math.max(0, RATE_LIMITS.public.limit - bucket.count));
      }
    },
  },
  {
    name: 'read-bucket-per-token',
    breaks: 'RL-PER-PLAYER',
    does: 'counts authenticated reads per token, not per player: a player signed in twice gets two buckets',
    apply: (ctx) => {
      const { request, response } = ctx;
      if (request.category !== 'read' || request.isGameOrigin || request.token === undefined || response.status !== 200) return;
      const bucket = countInProxyBucket(ctx, 'per-token', request.token);
      response.headers[HEADERS.rateLimitRemaining] = String(Math.max(0, RATE_LIMITS.read.limit - bucket.count));
    },
  },
  {
    name: 'auth-successes-given-back',
    breaks: 'RL-REMAINING',
    does: 'gives an accepted registration or verification back to the auth bucket once answered, as a limiter that skips successful requests: only refusals count',
    apply: (ctx) => {
      const { request, response } = ctx;
      if (request.category !== 'auth' || response.status === 429) return;
      const bucket = countInProxyBucket(ctx, 'auth-refusals', request.clientIp);
      response.headers[HEADERS.rateLimitRemaining] = String(Math.max(0, RATE_LIMITS.auth.limit - bucket.count));
      if (isSuccess(response)) bucket.count--;
    },
  },
  {
    name: 'read-bucket-per-player-and-address',
    breaks: 'RL-PER-PLAYER',
    does: "counts a player's authenticated reads per client address: a player reading from two addresses gets two buckets",
    apply: (ctx) => {
      const { request, response } = ctx;
      if (request.category !== 'read' || request.isGameOrigin || request.token === undefined || response.status !== 200) return;
      const bucket = countInProxyBucket(ctx, 'per-player-and-address', `${request.token} ${request.clientIp}`);
      response.headers[HEADERS.rateLimitRemaining] = String(Math.max(0, RATE_LIMITS.read.limit - bucket.count));
    },
  },
  {
    name: 'game-origin-by-prefix',
    breaks: 'RL-EXEMPT',
    does: "exempts every Origin that starts with a game origin's scheme and host (a longer host name, another port), not the game origins alone",
    before: ({ request }) => {
      const origin = request.headers['origin'];
      const host = new URL(GAME_ORIGIN).host;
      const lookAlike = origin !== undefined && origin !== GAME_ORIGIN && ['http://', 'https://'].some((scheme) => origin.startsWith(scheme + host));
      if (lookAlike) request.headers['origin'] = GAME_ORIGIN;
      return undefined;
    },
  },
  {
    name: 'game-origin-auth-not-counted',
    breaks: 'RL-AUTH-IP',
    does: 'exempts game-origin register and verify requests from the auth bucket (each looks like a new client)',
    before: ({ request, memo }) => {
      if (request.category !== 'auth' || !request.isGameOrigin) return;
      const next = memo('addresses', () => ({ count: 0 }));
      const index = next.count++;
      request.headers['x-forwarded-for'] = `100.${64 + ((index >> 16) & 63)}.${(index >> 8) & 255}.${index & 255}`;
    },
    apply: ({ request, response }) => {
      if (request.category !== 'auth' || !request.isGameOrigin) return;
      for (const name of RATE_LIMIT_HEADERS) delete response.headers[name];
    },
  },
  {
    name: 'game-origin-counted',
    breaks: 'RL-EXEMPT',
    does: 'counts game-origin requests against the public, read and gameplay buckets (without showing X-RateLimit-*)',
    before: ({ request }) => {
      if (request.category === 'auth' || request.category === 'admin' || !request.isGameOrigin || request.method === 'OPTIONS') return;
      delete request.headers['origin'];
    },
    apply: ({ request, response }) => {
      if (request.category === 'auth' || request.category === 'admin' || !request.isGameOrigin || request.method === 'OPTIONS') return;
      for (const name of RATE_LIMIT_HEADERS) delete response.headers[name];
      response.headers['access-control-allow-origin'] = request.origin!;
      response.headers['vary'] = 'Origin';
    },
  },

  // Envelopes and JSON
  {
    name: '429-body-without-error',
    breaks: 'ENV-ERROR',
    does: 'answers 429 with {message, retryAfter} instead of {error}',
    apply: ({ response }) => {
      if (response.status !== 429) return;
      const body = objectBody(response);
      response.body = { message: body?.['error'] ?? 'Too many requests', retryAfter: Number(response.headers[HEADERS.retryAfter]) };
    },
  },
  {
    name: 'empty-error-on-404',
    breaks: 'ENV-ERROR',
    does: 'answers 404 with {error: ""}: an error envelope whose message says nothing',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (!request.isControl && response.status === 404 && body !== undefined && 'error' in body) body['error'] = '';
    },
  },
  {
    name: 'error-field-renamed',
    breaks: 'ENV-ERROR',
    does: 'answers 4xx (other than 429) with {message} instead of {error}',
    apply: ({ response }) => {
      const body = objectBody(response);
      if (!isRefusal(response) || body === undefined || !('error' in body)) return;
      const { error, ...rest } = body;
      response.body = { ...rest, message: error };
    },
  },
  {
    name: 'success-missing',
    breaks: 'ENV-SUCCESS',
    does: 'leaves success out of every 2xx body',
    apply: ({ response }) => {
      const body = objectBody(response);
      if (isSuccess(response) && body !== undefined) delete body['success'];
    },
  },
  {
    name: 'text-404',
    breaks: 'BODY-JSON',
    does: "answers unknown paths with a framework's HTML page (Cannot GET /x) instead of JSON",
    apply: ({ request, response }) => {
      if (response.status !== 404) return;
      response.body = undefined;
      response.text = `<!DOCTYPE html><html><body><pre>Cannot ${request.method} ${request.path}</pre></body></html>`;
      response.headers['content-type'] = 'text/html; charset=utf-8';
    },
  },

  // Health
  {
    name: 'health-requires-auth',
    breaks: 'HEALTH-NOAUTH',
    does: 'answers GET /health without a bearer token with 401',
    before: ({ request }) => {
      if (request.path !== '/health' || request.token !== undefined) return;
      return { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: { error: 'Missing bearer token' } };
    },
  },
  {
    name: 'health-status-healthy',
    breaks: 'HEALTH-BODY',
    does: 'reports status "healthy" instead of "ok"',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (request.path === '/health' && body !== undefined) body['status'] = 'healthy';
    },
  },
  {
    name: 'health-version-not-dotted',
    breaks: 'HEALTH-BODY',
    does: 'reports version "v0.1" instead of <major>.<minor>.<patch>',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (request.path === '/health' && body !== undefined) body['version'] = 'v0.1';
    },
  },

  // Register and verify
  {
    name: 'register-message-unrelated',
    breaks: 'REG-OK',
    does: 'answers a registration with the message "OK", which says nothing of a code sent to the email',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, REGISTER) && isSuccess(response) && body !== undefined) body['message'] = 'OK';
    },
  },
  {
    name: 'register-message-empty',
    breaks: 'REG-OK',
    does: 'answers a registration with an empty message, which cannot say a code was sent',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, REGISTER) && isSuccess(response) && body !== undefined) body['message'] = ' ';
    },
  },
  {
    name: 'register-without-message',
    breaks: 'REG-OK',
    does: 'leaves message out of the register response',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, REGISTER) && isSuccess(response) && body !== undefined) delete body['message'];
    },
  },
  {
    name: 'missing-email-422',
    breaks: 'REG-MISSING',
    does: 'answers 422 where the spec says 400: a register request whose email is missing, empty or no string',
    apply: ({ request, response }) => {
      const email = requestBody(request)?.['email'];
      if (isPost(request, REGISTER) && response.status === 400 && (typeof email !== 'string' || email.trim() === ''))
        answer(response, 422, { error: 'Unprocessable entity' });
    },
  },
  {
    name: 'register-without-email-accepted',
    breaks: 'REG-MISSING',
    does: 'answers 200 to a register request without an email',
    apply: ({ request, response }) => {
      const email = requestBody(request)?.['email'];
      if (isPost(request, REGISTER) && response.status === 400 && (typeof email !== 'string' || email.trim() === '')) answer(response, 200, { ...registered });
    },
  },
  {
    name: 'malformed-email-accepted',
    breaks: 'REG-INVALID',
    does: 'answers 200 to a register request whose email is a string but no address ("not-an-email")',
    apply: ({ request, response }) => {
      const email = requestBody(request)?.['email'];
      const error = objectBody(response)?.['error'];
      if (!isPost(request, REGISTER) || response.status !== 400 || typeof email !== 'string' || email.trim() === '') return;
      if (typeof error === 'string' && !/disposable/i.test(error)) answer(response, 200, { ...registered });
    },
  },
  {
    name: 'disposable-email-accepted',
    breaks: 'REG-DISPOSABLE',
    does: 'accepts registration with a disposable-domain email',
    apply: ({ request, response }) => {
      const error = objectBody(response)?.['error'];
      if (isPost(request, REGISTER) && isRefusal(response) && typeof error === 'string' && /disposable/i.test(error)) answer(response, 200, { ...registered });
    },
  },
  {
    name: 'disposable-domain-by-letter-case',
    breaks: 'REG-DISPOSABLE',
    does: 'compares domains by letter case: an address at Mailinator.COM is registered, one at mailinator.com refused',
    apply: ({ request, response }) => {
      const email = requestBody(request)?.['email'];
      const domain = typeof email === 'string' ? email.slice(email.lastIndexOf('@') + 1) : '';
      const disposable = (DISPOSABLE_DOMAINS as readonly string[]).includes(domain.toLowerCase());
      if (isPost(request, REGISTER) && isRefusal(response) && disposable && domain !== domain.toLowerCase()) answer(response, 200, { ...registered });
    },
  },
  {
    name: 'challenge-token-refused',
    breaks: 'REG-OK',
    does: 'refuses a registration that sends a challengeToken, with no bot-check configured (the field is optional there)',
    apply: ({ request, response }) => {
      if (isPost(request, REGISTER) && isSuccess(response) && requestBody(request)?.['challengeToken'] !== undefined)
        answer(response, 400, { error: 'challengeToken is not accepted' });
    },
  },
  {
    name: 'verification-not-kept',
    breaks: 'SHIP-VERIFIED',
    does: 'forgets that a player verified: ship creation answers 403 "Email verification is required" to every player',
    apply: ({ request, response }) => {
      if (isPost(request, SHIP) && response.status !== 401 && response.status !== 429)
        answer(response, 403, { error: 'Email verification is required before creating a ship' });
    },
  },
  {
    name: 'player-read-requires-verified',
    breaks: 'ENV-SUCCESS',
    does: 'refuses GET /api/player to a player whose email is not verified (403), though the route asks only a bearer token',
    seesControl: true,
    apply: ({ request, response, memo }) => {
      const unverified = memo('unverified tokens', () => new Set<string>());
      const token = objectBody(response)?.['authToken'];
      if (request.isControl && request.path.endsWith('/scenarios/unverified-player') && typeof token === 'string') unverified.add(token);
      if (!request.isControl && request.method === 'GET' && request.path === '/api/player' && request.token !== undefined && unverified.has(request.token))
        answer(response, 403, { error: 'Verify your email first' });
    },
  },
  {
    name: 'token-not-uuid',
    breaks: 'VERIFY-OK',
    does: 'issues opaque tokens (gs_<hex>) instead of UUIDs, translating them back on the way in',
    seesControl: true,
    before: ({ request, memo }) => {
      const issued = memo('tokens', () => new Map<string, string>());
      if (request.token !== undefined && issued.has(request.token)) request.headers['authorization'] = `Bearer ${issued.get(request.token)}`;
      if (request.body !== undefined) for (const [fake, real] of issued) request.body = request.body.replaceAll(fake, real);
    },
    apply: ({ request, response, memo }) => {
      const body = objectBody(response);
      if (request.isControl || !isPost(request, VERIFY) || typeof body?.['authToken'] !== 'string') return;
      const fake = `gs_${body['authToken'].replaceAll('-', '')}`;
      memo('tokens', () => new Map<string, string>()).set(fake, body['authToken']);
      body['authToken'] = fake;
    },
  },
  {
    name: 'expires-at-without-timezone',
    breaks: 'VERIFY-OK',
    does: 'sends expiresAt as local time without a zone ("2030-01-08T00:00:00.000")',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, VERIFY) && typeof body?.['expiresAt'] === 'string') body['expiresAt'] = body['expiresAt'].replace(/Z$/, '');
    },
  },
  {
    name: 'verify-without-otp-accepted',
    breaks: 'VERIFY-MISSING',
    does: 'answers 200 with a token to a verify request without an otp or an email',
    apply: (ctx) => {
      const { request, response } = ctx;
      const body = requestBody(request);
      if (isPost(request, VERIFY) && response.status === 400 && (typeof body?.['otp'] !== 'string' || typeof body['email'] !== 'string')) {
        answer(response, 200, forgedToken(ctx));
      }
    },
  },
  {
    name: 'wrong-code-accepted',
    breaks: 'VERIFY-WRONG',
    does: 'accepts any well-formed 6-digit code, not only the one sent',
    apply: (ctx) => {
      const { request, response, ledger } = ctx;
      const { email, otp } = requestBody(request) ?? {};
      if (!isPost(request, VERIFY) || !isRefusal(response) || typeof email !== 'string' || typeof otp !== 'string' || !/^\d{6}$/.test(otp)) return;
      if (ledger.otps.some((delivery) => delivery.code === otp && delivery.email === email.trim().toLowerCase())) return;
      answer(response, 200, forgedToken(ctx));
    },
  },
  {
    name: 'code-reusable',
    breaks: 'VERIFY-REUSED',
    does: 'accepts a code again after it was used (while it is not expired), answering the same token',
    apply: ({ request, response, ledger, memo }) => {
      const { email, otp } = requestBody(request) ?? {};
      if (!isPost(request, VERIFY) || typeof email !== 'string' || typeof otp !== 'string') return;
      const used = memo('used', () => new Map<string, Body>());
      const key = `${email.trim().toLowerCase()} ${otp}`;
      if (isSuccess(response) && objectBody(response) !== undefined) used.set(key, { ...objectBody(response) });
      const delivery = ledger.otps.findLast((item) => item.email === email.trim().toLowerCase() && item.code === otp);
      const earlier = used.get(key);
      if (isRefusal(response) && earlier !== undefined && delivery !== undefined && !ledger.codeExpired(delivery)) answer(response, 200, { ...earlier });
    },
  },
  {
    name: 'expired-code-accepted',
    breaks: 'OTP-EXPIRY',
    does: 'accepts the code sent after its 15 minutes are over',
    apply: (ctx) => {
      const { request, response, ledger } = ctx;
      const { email, otp } = requestBody(request) ?? {};
      if (!isPost(request, VERIFY) || !isRefusal(response) || typeof email !== 'string' || typeof otp !== 'string') return;
      const delivery = ledger.otps.findLast((item) => item.email === email.trim().toLowerCase() && item.code === otp);
      if (delivery !== undefined && ledger.codeExpired(delivery)) answer(response, 200, forgedToken(ctx));
    },
  },
  {
    name: 'expires-at-six-days',
    breaks: 'TOKEN-LIFETIME',
    does: 'states an expiresAt 6 days after issue instead of 7',
    apply: ({ request, response }) => {
      const body = objectBody(response);
      if (isPost(request, VERIFY) && typeof body?.['expiresAt'] === 'string') {
        body['expiresAt'] = new Date(Date.parse(body['expiresAt']) - 24 * 60 * 60_000).toISOString();
      }
    },
  },
  {
    name: 'expired-token-accepted',
    breaks: 'TOKEN-EXPIRY',
    does: 'keeps accepting a token after its 7 days (401 becomes 200)',
    apply: ({ request, response, ledger }) => {
      if (response.status !== 401 || request.token === undefined || (!ledger.tokens.has(request.token) && !ledger.expiredTokens.has(request.token))) return;
      if (!ledger.tokenExpired(request.token)) return;
      delete response.headers['www-authenticate'];
      const body = request.method === 'GET' ? { success: true, player: { id: randomUUID(), emailVerified: true } } : { success: true };
      answer(response, 200, body, request.category === 'gameplay' ? { [HEADERS.actionPointsRemaining]: '60' } : {});
    },
  },
  {
    name: 'bad-token-403',
    breaks: 'AUTH-401',
    does: 'answers 403 instead of 401 to a missing or invalid token',
    apply: ({ response }) => {
      if (response.status === 401) response.status = 403;
    },
  },
  {
    name: 'ship-gate-vague-message',
    breaks: 'SHIP-VERIFIED',
    does: 'refuses ship creation for an unverified email with a bare {error: "Forbidden"}',
    apply: ({ request, response }) => {
      const error = objectBody(response)?.['error'];
      if (isPost(request, SHIP) && isRefusal(response) && typeof error === 'string' && /verif/i.test(error)) response.body = { error: 'Forbidden' };
    },
  },

  // Routing
  {
    name: 'unknown-path-400',
    breaks: 'ERR-404',
    does: 'answers 400 instead of 404 for unknown paths',
    apply: ({ response }) => {
      if (response.status === 404) response.status = 400;
    },
  },
  {
    name: 'wrong-method-404',
    breaks: 'ERR-405',
    does: 'answers 404 instead of 405 for a known path with the wrong method',
    apply: ({ response }) => {
      if (response.status !== 405) return;
      response.status = 404;
      delete response.headers['allow'];
    },
  },

  // Action points
  {
    name: 'no-actionpoints-remaining',
    breaks: 'AP-HEADERS',
    does: 'leaves X-ActionPoints-Remaining (and NextRefill) out of successful gameplay responses',
    apply: ({ request, response }) => {
      if (request.category !== 'gameplay' || !isSuccess(response)) return;
      delete response.headers[HEADERS.actionPointsRemaining];
      delete response.headers[HEADERS.actionPointsNextRefill];
    },
  },
  {
    name: 'no-nextrefill-at-zero',
    breaks: 'AP-HEADERS',
    does: 'leaves X-ActionPoints-NextRefill out when X-ActionPoints-Remaining is 0',
    apply: ({ response }) => {
      if (response.headers[HEADERS.actionPointsRemaining] === '0') delete response.headers[HEADERS.actionPointsNextRefill];
    },
  },

  // Departures an earlier suite missed
  {
    name: 'ship-without-token-served',
    breaks: 'AUTH-401',
    does: 'creates a ship for a request without Authorization',
    before: ({ request }) => {
      if (!isPost(request, SHIP) || request.headers['authorization'] !== undefined) return;
      return { status: 200, headers: { [HEADERS.actionPointsRemaining]: '60' }, body: { success: true, ship: { id: randomUUID(), name: 'Anonymous' } } };
    },
  },
  {
    name: 'code-not-bound-to-email',
    breaks: 'VERIFY-BOUND',
    does: 'accepts a pending code for any address, not only the one it was sent to',
    apply: (ctx) => {
      const { request, response, ledger } = ctx;
      const { email, otp } = requestBody(request) ?? {};
      if (!isPost(request, VERIFY) || !isRefusal(response) || typeof email !== 'string' || typeof otp !== 'string') return;
      if (ledger.otps.some((delivery) => delivery.code === otp && !ledger.codeExpired(delivery))) answer(response, 200, forgedToken(ctx));
    },
  },
  codesOfLength(5, (code) => code.slice(0, 5)),
  codesOfLength(7, (code) => `${code}0`),
  {
    name: 'public-bucket-never-refuses',
    breaks: 'RL-429',
    does: 'counts GET /health in the public bucket, but answers it even when the bucket is spent',
    apply: ({ request, response }) => {
      if (request.path !== '/health' || response.status !== 429) return;
      delete response.headers[HEADERS.retryAfter];
      answer(response, 200, { success: true, status: 'ok', version: '0.1.0' });
    },
  },
  {
    name: 'gameplay-bucket-never-refuses',
    breaks: 'RL-429',
    does: "counts a player's gameplay POSTs, but handles them even when the bucket is spent (a second ship: 400)",
    apply: ({ request, response }) => {
      if (request.category !== 'gameplay' || response.status !== 429) return;
      delete response.headers[HEADERS.retryAfter];
      answer(response, 400, { error: 'This player already has a ship' });
    },
  },
  {
    name: 'wrong-attempt-429-without-retry-after',
    breaks: 'RL-429',
    does: 'answers 429 without Retry-After once too many wrong codes were sent (the rate-limit 429s keep theirs)',
    apply: ({ request, response }) => {
      const error = objectBody(response)?.['error'];
      if (isPost(request, VERIFY) && response.status === 429 && typeof error === 'string' && /wrong code/i.test(error))
        delete response.headers[HEADERS.retryAfter];
    },
  },
  {
    name: 'refresh-route',
    breaks: 'TOKEN-NO-REFRESH',
    does: 'renews a token: POST /api/auth/refresh with a valid bearer answers a new token, which the server then accepts',
    before: ({ request, memo }) => {
      const aliases = memo('refreshed', () => new Map<string, string>());
      const sent = /^Bearer\s+(\S+)$/i.exec(request.headers['authorization'] ?? '')?.[1];
      const original = sent === undefined ? undefined : (aliases.get(sent) ?? sent);
      if (sent !== undefined && aliases.has(sent)) request.headers['authorization'] = `Bearer ${original}`;
      if (request.method !== 'POST' || request.path !== '/api/auth/refresh' || original === undefined) return undefined;
      const renewed = randomUUID();
      aliases.set(renewed, original);
      return { status: 200, headers: {}, body: { success: true, authToken: renewed } };
    },
  },
  {
    name: 'null-body-500',
    breaks: 'REG-MISSING',
    does: 'answers 500 to a register request whose JSON body is null',
    apply: ({ request, response }) => {
      if (isPost(request, REGISTER) && request.json === null) answer(response, 500, { error: 'Internal server error' });
    },
  },
  {
    name: 'numeric-otp-500',
    breaks: 'VERIFY-MISSING',
    does: 'answers 500 to a verify-email request whose otp is a number',
    apply: ({ request, response }) => {
      if (isPost(request, VERIFY) && typeof requestBody(request)?.['otp'] === 'number') answer(response, 500, { error: 'Internal server error' });
    },
  },
  {
    name: 'unreadable-body-500',
    breaks: 'REG-MISSING',
    does: 'answers 500 to a register request whose body is no JSON',
    apply: ({ request, response }) => {
      if (isPost(request, REGISTER) && request.body !== undefined && request.json === undefined) answer(response, 500, { error: 'Internal server error' });
    },
  },
  {
    name: 'non-string-email-500',
    breaks: 'VERIFY-MISSING',
    does: 'answers 500 to a verify-email request whose email is a number or an object',
    apply: ({ request, response }) => {
      const email = requestBody(request)?.['email'];
      if (isPost(request, VERIFY) && (typeof email === 'number' || (typeof email === 'object' && email !== null)))
        answer(response, 500, { error: 'Internal server error' });
    },
  },
];

/**
 * Delivers codes of another length than 6: the outbox shows `rewrite(code)`, and verify-email takes that back
 * as the real code, so that signing in still works and only the length is wrong.
 */
function codesOfLength(digits: number, rewrite: (code: string) => string): Mutation {
  const shown = (memo: MutationContext['memo']) => memo('shown codes', () => new Map<string, string>());
  return {
    name: `${digits}-digit-codes`,
    breaks: 'OTP-LENGTH',
    does: `delivers ${digits}-digit codes (and accepts them)`,
    seesControl: true,
    before: ({ request, memo }) => {
      const body = requestBody(request);
      if (!isPost(request, VERIFY) || typeof body?.['email'] !== 'string' || typeof body['otp'] !== 'string') return;
      const real = shown(memo).get(`${body['email'].trim().toLowerCase()} ${body['otp']}`);
      if (real !== undefined) request.body = JSON.stringify({ ...body, otp: real });
    },
    apply: ({ request, response, memo }) => {
      const messages = objectBody(response)?.['messages'];
      if (!request.isControl || request.path !== '/__mock/outbox' || !Array.isArray(messages)) return;
      for (const message of messages as Body[]) {
        if (typeof message['code'] !== 'string' || typeof message['email'] !== 'string') continue;
        const fake = rewrite(message['code']);
        shown(memo).set(`${message['email']} ${fake}`, message['code']);
        message['code'] = fake;
      }
    },
  };
}
