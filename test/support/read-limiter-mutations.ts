import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { GAME_ORIGIN, type Mutation, type MutationContext } from './mutating-proxy.js';

/**
 * Broken servers whose read limiter is written as real ones are: the proxy limits each token's authenticated reads
 * itself, 60 a window, its headers telling the truth of its own windows, and forwards each read it lets through
 * with the game origin, which the upstream does not count. Each is right one request at a time but for its flaw.
 */

const READ_LIMIT = RATE_LIMITS.read.limit;

interface ReadWindow {
  start: number;
  end: number;
  count: number;
  /** What the window before this one counted, for a limiter that weighs it in. */
  previousCount: number;
}

/** How a limiter decides: how many it holds as counted now, and what it does with a request it serves or refuses. */
interface ReadAlgorithm {
  counted(window: ReadWindow, now: number): number;
  onServed?(window: ReadWindow, now: number): void;
  onRefused?(window: ReadWindow, now: number): void;
  /** The read of the count and its write are two round trips to a remote store, with others' requests between. */
  storeRoundTripMs?: number;
}

const isLimitedRead = (ctx: MutationContext) => ctx.request.category === 'read' && ctx.request.token !== undefined && !ctx.request.isGameOrigin;

function windowOf(ctx: MutationContext, name: string): ReadWindow {
  const windows = ctx.memo(name, () => new Map<string, ReadWindow>());
  const now = ctx.now();
  const token = ctx.request.token!;
  // A player's bucket, whichever of its tokens reads.
  const key = ctx.ledger.playerOf(token) ?? token;
  const current = windows.get(key);
  if (current !== undefined && now >= current.start && now < current.end) return current;
  // A clock moved back past the window starts afresh; one that ended hands its count on.
  const previousCount = current !== undefined && now >= current.end && now < current.end + RATE_LIMIT_WINDOW_MS ? current.count : 0;
  const opened = { start: now, end: now + RATE_LIMIT_WINDOW_MS, count: 0, previousCount };
  windows.set(key, opened);
  return opened;
}

function limitHeaders(window: ReadWindow, remaining: number, now: number, refused: boolean): Record<string, string> {
  return {
    [HEADERS.rateLimitLimit]: String(READ_LIMIT),
    [HEADERS.rateLimitRemaining]: String(Math.max(0, remaining)),
    [HEADERS.rateLimitReset]: String(Math.ceil(window.end / 1000)),
    ...(refused ? { [HEADERS.retryAfter]: String(Math.max(1, Math.ceil((window.end - now) / 1000))) } : {}),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function ownReadLimiter(name: string, algorithm: ReadAlgorithm): Pick<Mutation, 'before' | 'apply'> {
  const remainingKey = `${name} remaining`;
  return {
    before: async (ctx) => {
      if (!isLimitedRead(ctx)) return undefined;
      const window = windowOf(ctx, name);
      const [stored, counted] = [window.count, algorithm.counted(window, ctx.now())];
      if (algorithm.storeRoundTripMs !== undefined) await pause(algorithm.storeRoundTripMs);
      if (counted >= READ_LIMIT) {
        algorithm.onRefused?.(window, ctx.now());
        // Dated by the upstream's clock, as its own answers are: the suite may have moved it.
        const date = { date: new Date(ctx.now()).toUTCString() };
        return { status: 429, headers: { ...date, ...limitHeaders(window, 0, ctx.now(), true) }, body: { error: 'Too many requests' } };
      }
      // Written back as read plus one: a write another request made meanwhile is lost.
      window.count = stored + 1;
      algorithm.onServed?.(window, ctx.now());
      ctx.memo(remainingKey, () => new Map<MutationContext['request'], number>()).set(ctx.request, READ_LIMIT - algorithm.counted(window, ctx.now()));
      ctx.request.headers['origin'] = GAME_ORIGIN;
      return undefined;
    },
    apply: (ctx) => {
      if (!isLimitedRead(ctx)) return;
      const remaining = ctx.memo(remainingKey, () => new Map<MutationContext['request'], number>());
      const left = remaining.get(ctx.request);
      remaining.delete(ctx.request);
      if (left === undefined) return;
      for (const header of Object.keys(ctx.response.headers)) if (header.startsWith('access-control-')) delete ctx.response.headers[header];
      Object.assign(ctx.response.headers, limitHeaders(windowOf(ctx, name), left, ctx.now(), false));
    },
  };
}

const fixedWindow = (window: ReadWindow) => window.count;

function endAMinuteFromNow(window: ReadWindow, now: number): void {
  window.end = now + RATE_LIMIT_WINDOW_MS;
}

export const READ_LIMITER_MUTATIONS: readonly Mutation[] = [
  {
    name: 'read-limit-check-then-increment',
    breaks: 'RL-WINDOW',
    does: 'counts reads in a remote store, reading the count and writing it back one round trip apart: reads sent together are all served past the limit',
    ...ownReadLimiter('check-then-increment', { counted: fixedWindow, storeRoundTripMs: 5 }),
  },
  {
    name: 'read-window-restarts-on-refusal',
    breaks: 'RL-WINDOW',
    does: 'restarts a spent read window at each refusal: a client that retries early waits a whole minute from its retry',
    ...ownReadLimiter('restarts-on-refusal', {
      counted: fixedWindow,
      onRefused: (window, now) => {
        window.start = now;
        window.end = now + RATE_LIMIT_WINDOW_MS;
      },
    }),
  },
  {
    name: 'read-window-sliding-estimate',
    breaks: 'RL-WINDOW',
    does: 'estimates a sliding minute: the window before still counts, weighed by how much of it the last minute covers, so a new window does not serve its whole bucket',
    ...ownReadLimiter('sliding-estimate', {
      counted: (window, now) => window.count + Math.floor((window.previousCount * (window.end - now)) / RATE_LIMIT_WINDOW_MS),
    }),
  },
  {
    name: 'read-window-end-moves',
    breaks: 'RL-WINDOW',
    does: "moves the read window's end a minute past every request it serves or refuses: a client that keeps reading never gets a new window",
    ...ownReadLimiter('end-moves', {
      counted: fixedWindow,
      onServed: endAMinuteFromNow,
      onRefused: endAMinuteFromNow,
    }),
  },
];
