import { RATE_LIMIT_WINDOW_MS } from '../../../src/spec/limits.js';
import { counted } from '../../common/counted.js';
import type { TimeInterval } from './server-time.js';

/** The readings of Retry-After the suite accepts (the spec: "integer, unit unspecified"). */
export type RetryAfterUnit = 'seconds' | 'milliseconds' | 'minutes';

export interface RetryAfterReading {
  unit: RetryAfterUnit;
  /** The wait it asks for. */
  waitMs: number;
}

const UNIT_MS: Readonly<Record<RetryAfterUnit, number>> = { seconds: 1_000, milliseconds: 1, minutes: 60_000 };
export const RETRY_AFTER_UNITS = Object.keys(UNIT_MS) as readonly RetryAfterUnit[];

/**
 * Without other evidence a value up to an hour is seconds (HTTP's unit) and a larger one milliseconds,
 * as the suite's scheduler (pacing.ts) reads it.
 */
export const SECONDS_CEILING = 3_600;

/** Slack when matching a reading against the wait X-RateLimit-Reset implies: whole-second rounding on both sides. */
const MATCH_SLACK_MS = 2_000;

/** `value` read in `unit`. */
export function readingIn(value: number, unit: RetryAfterUnit): RetryAfterReading {
  return { unit, waitMs: value * UNIT_MS[unit] };
}

/**
 * Whether a reading asks for at least the wait until the window ends (within a second or two of rounding) and
 * no more than a whole window: the spec gives no more than "integer, unit unspecified", and a server may always
 * name the whole window. A unit coarser than a second may round up by a whole unit (20 s to 1 minute).
 */
export function fitsWait(reading: RetryAfterReading, expectedWaitMs: TimeInterval, slackMs = MATCH_SLACK_MS): boolean {
  const rounding = Math.max(0, UNIT_MS[reading.unit] - UNIT_MS.seconds);
  const longest = Math.max(expectedWaitMs.toMs + rounding, RATE_LIMIT_WINDOW_MS);
  return reading.waitMs >= expectedWaitMs.fromMs - slackMs && reading.waitMs <= longest + slackMs;
}

/**
 * Reads a Retry-After value. `expectedWaitMs` (from X-RateLimit-Reset, when its unit is known) settles the
 * unit when exactly one reading matches it; otherwise the default rule applies. Undefined for a value that
 * is not a non-negative integer.
 */
export function readRetryAfter(value: number, expectedWaitMs?: TimeInterval): RetryAfterReading | undefined {
  if (!Number.isSafeInteger(value) || value < 0) return undefined;
  if (expectedWaitMs !== undefined) {
    const matching = RETRY_AFTER_UNITS.map((unit) => readingIn(value, unit)).filter((reading) => fitsWait(reading, expectedWaitMs));
    if (matching.length === 1) return matching[0];
  }
  return readingIn(value, value > SECONDS_CEILING ? 'milliseconds' : 'seconds');
}

/** A fixed window of `windowMs` never asks a client to wait longer than the window. */
export function consistentWithWindow(reading: RetryAfterReading, windowMs = RATE_LIMIT_WINDOW_MS): boolean {
  return reading.waitMs >= 0 && reading.waitMs <= windowMs;
}

/** `45 seconds`, `45000 milliseconds (45 s)`, `1 minute (60 s)`. */
export function describeRetryAfter(value: number, reading: RetryAfterReading): string {
  if (reading.unit === 'seconds') return counted(value, 'second');
  return `${counted(value, reading.unit === 'minutes' ? 'minute' : 'millisecond')} (${reading.waitMs / 1000} s)`;
}
