/** Numbers the spec states. Everything else that counts or expires derives from these. */

export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Where fixed one-minute windows start: at each key's first counted request, or on clock minutes. The Limits table
 * says "per minute" and no more, so either is legal.
 */
export type RateLimitWindows = 'first-hit' | 'clock-minute';

/** Spec, Limits table: bucket size, what a bucket is keyed by, and who is counted. */
export const RATE_LIMITS = {
  auth: { limit: 5, scope: 'ip', exemptForGameOrigins: false },
  gameplay: { limit: 60, scope: 'player', exemptForGameOrigins: true },
  read: { limit: 60, scope: 'player', exemptForGameOrigins: true },
  public: { limit: 60, scope: 'ip', exemptForGameOrigins: true },
  admin: { limit: 10, scope: 'ip', exemptForGameOrigins: false },
} as const;

export type RateLimitCategory = keyof typeof RATE_LIMITS;

export const OTP_LENGTH = 6;
export const OTP_LIFETIME_MS = 15 * 60_000;
export const TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** Mock-defined (the spec does not show the ship payload): the longest `name` it accepts, in UTF-16 code units. */
export const MAX_SHIP_NAME_LENGTH = 32;

/** Headers the spec names. */
export const HEADERS = {
  rateLimitLimit: 'x-ratelimit-limit',
  rateLimitRemaining: 'x-ratelimit-remaining',
  rateLimitReset: 'x-ratelimit-reset',
  retryAfter: 'retry-after',
  actionPointsRemaining: 'x-actionpoints-remaining',
  actionPointsNextRefill: 'x-actionpoints-nextrefill',
} as const;
