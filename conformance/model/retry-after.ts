import { RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { counted } from '../report/counted.js';
import type { TimeInterval } from './server-time.js';

/** The readings of Retry-After the suite accepts (the spec: "integer, unit unspecified"). */
export type RetryAfterUnit = 'seconds' | 'milliseconds';

export interface RetryAfterReading {
  unit: RetryAfterUnit;
  /** The wait it asks for. */
  waitMs: number;
}

/**
 * Without other evidence a value up to an hour is seconds (HTTP's unit) and a larger one milliseconds,
 * as the suite's scheduler (pacing.ts) reads it.
 */
export const SECONDS_CEILING = 3_600;

/** Slack when matching a reading against the wait X-RateLimit-Reset implies: whole-second rounding on both sides. */
const MATCH_SLACK_MS = 2_000;

/**
 * Reads a Retry-After value. `expectedWaitMs` (from X-RateLimit-Reset, when its unit is known) settles the
 * unit when exactly one reading matches it; otherwise the default rule applies. Undefined for a value that
 * is not a non-negative integer.
 */
export function readRetryAfter(value: number, expectedWaitMs?: TimeInterval): RetryAfterReading | undefined {
  if (!Number.isSafeInteger(value) || value < 0) return undefined;
  const candidates: RetryAfterReading[] = [
    { unit: 'seconds', waitMs: value * 1000 },
    { unit: 'milliseconds', waitMs: value },
  ];
  if (expectedWaitMs !== undefined) {
    const matching = candidates.filter(
      (reading) => reading.waitMs >= expectedWaitMs.fromMs - MATCH_SLACK_MS && reading.waitMs <= expectedWaitMs.toMs + MATCH_SLACK_MS,
    );
    if (matching.length === 1) return matching[0];
  }
  return value > SECONDS_CEILING ? candidates[1] : candidates[0];
}

/** A fixed window of `windowMs` never asks a client to wait longer than the window. */
export function consistentWithWindow(reading: RetryAfterReading, windowMs = RATE_LIMIT_WINDOW_MS): boolean {
  return reading.waitMs >= 0 && reading.waitMs <= windowMs;
}

/** `45 seconds`, `45000 milliseconds (45 s)`. */
export function describeRetryAfter(value: number, reading: RetryAfterReading): string {
  return reading.unit === 'seconds' ? counted(value, 'second') : `${counted(value, 'millisecond')} (${reading.waitMs / 1000} s)`;
}
