import type { Variants } from './active-variants.js';
import type { RateLimitWindows } from '../spec/limits.js';

/**
 * What each variant changes, as small pure functions of the variants a service plays: the statuses, units
 * and formats the spec leaves open. The default side of every choice is the one docs/spec-silent.md names.
 */

/** Statuses the spec does not show, by the case they answer. */
const REFUSAL_STATUSES = {
  'wrong-code': { default: 400, sides: { 'wrong-code-401': 401, 'wrong-code-422': 422 } },
  disposable: { default: 400, sides: { 'disposable-403': 403, 'disposable-422': 422 } },
  'unverified-ship': { default: 403, sides: { 'unverified-ship-400': 400, 'unverified-ship-422': 422 } },
} as const;

export function refusalStatus(variants: Variants, refusal: keyof typeof REFUSAL_STATUSES): number {
  const { sides, default: fallback } = REFUSAL_STATUSES[refusal];
  for (const [name, status] of Object.entries(sides)) if (variants.has(name as keyof typeof sides)) return status;
  return fallback;
}

export function rateLimitWindows(variants: Variants, configured: RateLimitWindows): RateLimitWindows {
  return variants.has('windows-on-clock-minutes') ? 'clock-minute' : configured;
}

/** X-RateLimit-Reset: epoch seconds of the window's end, or epoch milliseconds, or the seconds left. */
export function resetHeader(variants: Variants, windowEnd: number, now: number): string {
  if (variants.has('reset-epoch-milliseconds')) return String(windowEnd);
  if (variants.has('reset-seconds-remaining')) return String(Math.max(0, Math.ceil((windowEnd - now) / 1000)));
  return String(Math.floor(windowEnd / 1000));
}

/** Retry-After of a 429: whole seconds until `until`, rounded up and at least 1, or milliseconds. */
export function retryAfterHeader(variants: Variants, until: number, now: number): string {
  if (variants.has('retry-after-milliseconds')) return String(Math.max(1, until - now));
  if (variants.has('retry-after-minutes')) return String(Math.max(1, Math.ceil((until - now) / 60_000)));
  return String(retryAfterSeconds(until, now));
}

/** Whole seconds until `until`, rounded up and at least 1: a client retrying then finds the window over. */
export function retryAfterSeconds(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/** X-ActionPoints-NextRefill: seconds until the next point, or minutes rounded up. */
export function nextRefillHeader(variants: Variants, msToNextPoint: number): string {
  return String(variants.has('nextrefill-in-minutes') ? Math.ceil(msToNextPoint / 60_000) : Math.ceil(msToNextPoint / 1000));
}

/** An instant as ISO 8601 UTC, with or without milliseconds. */
export function isoInstant(variants: Variants, ms: number): string {
  const iso = new Date(ms).toISOString();
  return variants.has('expires-at-without-milliseconds') ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
}
