import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { Mutation, MutationContext, ProxiedResponse } from './mutating-proxy.js';
import { isSuccess } from './proxy-rewrites.js';

/**
 * Broken servers whose auth limiter is written as real ones are: the proxy limits register and verify-email itself,
 * 5 a client address, its headers telling the truth of its own windows, and forwards each request it lets through
 * as from an address of its own, so that the upstream never limits them.
 */

const AUTH_LIMIT = RATE_LIMITS.auth.limit;
const VERIFY = '/api/auth/verify-email';

interface AuthWindow {
  end: number;
  count: number;
}

/** Which bucket a client address counts in: its own, or one its neighbours share. */
type BucketKey = (clientIp: string) => string;
const byAddress: BucketKey = (clientIp) => clientIp;

/** The window of the request's client address, opened afresh where the last one ended (or a run set the clock back past it). */
function windowOf(ctx: MutationContext, name: string, windowMs: number, keyOf: BucketKey): AuthWindow {
  const windows = ctx.memo(name, () => new Map<string, AuthWindow>());
  const now = ctx.now();
  const key = keyOf(ctx.request.clientIp);
  const current = windows.get(key);
  if (current !== undefined && now < current.end && current.end - now <= windowMs) return current;
  const opened = { end: now + windowMs, count: 0 };
  windows.set(key, opened);
  return opened;
}

function limitHeaders(window: AuthWindow, now: number): Record<string, string> {
  return {
    [HEADERS.rateLimitLimit]: String(AUTH_LIMIT),
    [HEADERS.rateLimitRemaining]: String(Math.max(0, AUTH_LIMIT - window.count)),
    [HEADERS.rateLimitReset]: String(Math.ceil(window.end / 1000)),
    ...(window.count >= AUTH_LIMIT ? { [HEADERS.retryAfter]: String(Math.max(1, Math.ceil((window.end - now) / 1000))) } : {}),
  };
}

/** How an own auth limiter departs from a plain one. */
interface AuthLimiterFlaw {
  /** Changes a window once a request is answered. */
  onAnswer?: (window: AuthWindow, ctx: MutationContext & { response: ProxiedResponse }) => void;
  keyOf?: BucketKey;
  /** The count is read and written back one round trip to a remote store apart, with others' requests between. */
  storeRoundTripMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An auth limiter of the proxy's own: windows of `windowMs`, with its flaw. */
function ownAuthLimiter(
  name: string,
  windowMs: number,
  { onAnswer = () => {}, keyOf = byAddress, storeRoundTripMs }: AuthLimiterFlaw = {},
): Pick<Mutation, 'before' | 'apply'> {
  return {
    before: async (ctx) => {
      if (ctx.request.category !== 'auth') return undefined;
      const window = windowOf(ctx, name, windowMs, keyOf);
      const stored = window.count;
      if (storeRoundTripMs !== undefined) await pause(storeRoundTripMs);
      // Dated by the upstream's clock, as its own answers are: the suite may have moved it.
      const date = { date: new Date(ctx.now()).toUTCString() };
      if (stored >= AUTH_LIMIT) return { status: 429, headers: { ...date, ...limitHeaders(window, ctx.now()) }, body: { error: 'Too many requests' } };
      // Written back as read plus one: a write another request made meanwhile is lost.
      window.count = stored + 1;
      const forwarded = ctx.memo(`${name} addresses`, () => ({ count: 0 }));
      const index = forwarded.count++;
      ctx.request.headers['x-forwarded-for'] = `100.${64 + ((index >> 16) & 63)}.${(index >> 8) & 255}.${index & 255}`;
      return undefined;
    },
    apply: (ctx) => {
      if (ctx.request.category !== 'auth') return;
      const window = windowOf(ctx, name, windowMs, keyOf);
      // The upstream's headers name the bucket of the address it was shown: the proxy's own are the truth.
      if (ctx.response.headers[HEADERS.rateLimitLimit] !== undefined) Object.assign(ctx.response.headers, limitHeaders(window, ctx.now()));
      onAnswer(window, ctx);
    },
  };
}

export const AUTH_LIMITER_MUTATIONS: readonly Mutation[] = [
  {
    name: 'auth-bucket-given-back-on-sign-in',
    breaks: 'RL-REMAINING',
    does: "gives a client address's auth bucket back whole once one of its verifications succeeds, within the window (a limiter reset on sign-in)",
    ...ownAuthLimiter('given-back-on-sign-in', RATE_LIMIT_WINDOW_MS, {
      onAnswer: (window, { request, response }) => {
        if (request.method === 'POST' && request.path === VERIFY && isSuccess(response)) window.count = 0;
      },
    }),
  },
  {
    name: 'auth-window-two-minutes',
    breaks: 'RL-WINDOW',
    does: 'counts auth requests in windows of two minutes, its X-RateLimit-Reset and Retry-After telling the truth of them',
    ...ownAuthLimiter('two-minute-windows', 2 * RATE_LIMIT_WINDOW_MS),
  },
  {
    name: 'auth-bucket-per-network',
    breaks: 'RL-AUTH-IP',
    does: "counts auth requests per /24 network (an IPv6 address's /64), not per address: neighbouring client addresses share one bucket",
    ...ownAuthLimiter('per-network', RATE_LIMIT_WINDOW_MS, {
      keyOf: (clientIp) => (clientIp.includes(':') ? clientIp.split(':').slice(0, 4).join(':') : clientIp.split('.').slice(0, 3).join('.')),
    }),
  },
  {
    name: 'auth-limit-check-then-increment',
    breaks: 'RL-WINDOW',
    does: 'counts auth requests in a remote store, reading the count and writing it back one round trip apart: auth requests sent together are all served past the limit',
    ...ownAuthLimiter('check-then-increment', RATE_LIMIT_WINDOW_MS, { storeRoundTripMs: 5 }),
  },
];
