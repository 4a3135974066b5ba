import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS, type RateLimitCategory } from '../../../src/spec/limits.js';
import { ROUTES } from '../../../src/spec/routes.js';
import type { WindowAlignment } from './window-alignment.js';

/** Who sends a request, as the Limits table tells callers apart. */
export interface Caller {
  /** The client address as the target sees it (any stable label will do). */
  ip: string;
  /** The authenticated player, when the request carries a valid token. */
  playerId?: string | undefined;
  /** Whether the request names a configured game-client origin. */
  gameOrigin: boolean;
}

export interface ModelRequest {
  method: string;
  path: string;
  caller: Caller;
  /** When the server handles it, on the server's clock. */
  atMs: number;
}

/** Spec, Endpoints rule 2: the category of each listed operation; undefined for anything else ("not shown"). */
export function categoryOf(method: string, path: string): RateLimitCategory | undefined {
  return ROUTES.find((route) => route.method === method.toUpperCase() && route.path === path)?.category;
}

/** Limits rules: game origins are not counted against the gameplay, authenticated-read or public buckets. */
export function isCounted(category: RateLimitCategory, gameOrigin: boolean): boolean {
  return !(gameOrigin && RATE_LIMITS[category].exemptForGameOrigins);
}

/** The bucket a request draws from: per IP or per player as the table says; undefined for a player bucket without a player. */
export function bucketKey(category: RateLimitCategory, caller: Caller): string | undefined {
  if (RATE_LIMITS[category].scope === 'ip') return `${category} ip ${caller.ip}`;
  return caller.playerId === undefined ? undefined : `${category} player ${caller.playerId}`;
}

/** What the response to a request should show. */
export interface Expectation {
  category: RateLimitCategory | undefined;
  key: string | undefined;
  /** Whether the request draws from a bucket; undefined where the spec is silent (unknown route, read without a player). */
  counted: boolean | undefined;
  limit: number | undefined;
  /** X-RateLimit-Remaining after this request; undefined when the model cannot know. */
  remaining: number | undefined;
  /** Whether the answer is 429. */
  limited: boolean | undefined;
  windowEndMs: number | undefined;
  /** The request falls so near its window's end that either window may count it. */
  nearBoundary: boolean;
}

export interface ModelOptions {
  /** Where windows start where the target has not shown it. */
  alignment: WindowAlignment;
  /** Where the target showed a category's windows start (a server may align each category its own way). */
  alignments: (category: RateLimitCategory) => WindowAlignment | undefined;
  windowMs: number;
  /** How near a window's end a request must be for the model to leave the outcome open. */
  boundaryToleranceMs: number;
}

const DEFAULT_OPTIONS: ModelOptions = { alignment: 'first-hit', alignments: () => undefined, windowMs: RATE_LIMIT_WINDOW_MS, boundaryToleranceMs: 1_000 };

interface Bucket {
  count: number;
  windowEndMs: number;
}

/**
 * The Limits table as a state machine: one fixed window per (category, key), counted requests and the
 * game-origin exemption. `predict` says what a request should show; `record` also counts it; `sync`
 * adopts what a response showed of a bucket the model did not see start (traffic from before).
 */
export class RateLimitModel {
  readonly options: ModelOptions;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: Partial<ModelOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  alignmentOf(category: RateLimitCategory): WindowAlignment {
    return this.options.alignments(category) ?? this.options.alignment;
  }

  /** When a window of `category` that a counted request at `atMs` opens ends. */
  windowEndFor(category: RateLimitCategory, atMs: number): number {
    const { windowMs } = this.options;
    return this.alignmentOf(category) === 'first-hit' ? atMs + windowMs : Math.floor(atMs / windowMs) * windowMs + windowMs;
  }

  #live(key: string, atMs: number): Bucket | undefined {
    const bucket = this.#buckets.get(key);
    return bucket !== undefined && atMs < bucket.windowEndMs ? bucket : undefined;
  }

  predict(request: ModelRequest): Expectation {
    return this.#evaluate(request, false);
  }

  record(request: ModelRequest): Expectation {
    return this.#evaluate(request, true);
  }

  #evaluate(request: ModelRequest, commit: boolean): Expectation {
    const category = categoryOf(request.method, request.path);
    const unknown: Expectation = {
      category,
      key: undefined,
      counted: undefined,
      limit: category === undefined ? undefined : RATE_LIMITS[category].limit,
      remaining: undefined,
      limited: undefined,
      windowEndMs: undefined,
      nearBoundary: false,
    };
    if (category === undefined) return unknown;
    const limit = RATE_LIMITS[category].limit;
    if (!isCounted(category, request.caller.gameOrigin)) return { ...unknown, counted: false, limited: false };
    const key = bucketKey(category, request.caller);
    if (key === undefined) return unknown;
    const stored = this.#buckets.get(key);
    const nearBoundary = stored !== undefined && Math.abs(request.atMs - stored.windowEndMs) < this.options.boundaryToleranceMs;
    const bucket = this.#live(key, request.atMs) ?? { count: 0, windowEndMs: this.windowEndFor(category, request.atMs) };
    const limited = bucket.count >= limit;
    const count = limited ? bucket.count : bucket.count + 1;
    if (commit) this.#buckets.set(key, { count, windowEndMs: bucket.windowEndMs });
    return {
      category,
      key,
      counted: true,
      limit,
      remaining: limit - count,
      limited,
      windowEndMs: bucket.windowEndMs,
      nearBoundary,
    };
  }

  /** Takes a response's Remaining (and window end, when its Reset could be read) as the truth about a bucket. */
  sync(category: RateLimitCategory, caller: Caller, observed: { remaining: number; atMs: number; windowEndMs?: number | undefined }): void {
    const key = bucketKey(category, caller);
    if (key === undefined) return;
    const windowEndMs = observed.windowEndMs ?? this.#live(key, observed.atMs)?.windowEndMs ?? this.windowEndFor(category, observed.atMs);
    this.#buckets.set(key, { count: RATE_LIMITS[category].limit - observed.remaining, windowEndMs });
  }

  /** What the model holds for a bucket at `atMs`: undefined once its window has ended. */
  bucket(category: RateLimitCategory, caller: Caller, atMs: number): { count: number; remaining: number; windowEndMs: number } | undefined {
    const key = bucketKey(category, caller);
    const bucket = key === undefined ? undefined : this.#live(key, atMs);
    return bucket === undefined ? undefined : { ...bucket, remaining: RATE_LIMITS[category].limit - bucket.count };
  }

  clear(): void {
    this.#buckets.clear();
  }
}

/** How one counted response's Remaining follows the one before it from the same bucket. */
export type CountdownStep =
  | { kind: 'counted' }
  /** The window ended between the two: a fresh bucket that this request opened. */
  | { kind: 'new-window' }
  | { kind: 'unexpected'; expected: number };

/**
 * Judges consecutive Remaining values of one bucket: one less each time, unless the window restarted
 * in between (`windowMoved`, known from X-RateLimit-Reset), when it is Limit − 1.
 */
export function countdownStep(limit: number, previous: number, remaining: number, windowMoved: boolean): CountdownStep {
  if (windowMoved) return remaining === limit - 1 ? { kind: 'new-window' } : { kind: 'unexpected', expected: limit - 1 };
  return remaining === previous - 1 ? { kind: 'counted' } : { kind: 'unexpected', expected: previous - 1 };
}
