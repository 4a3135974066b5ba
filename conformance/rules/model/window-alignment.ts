import { RATE_LIMIT_WINDOW_MS } from '../../../src/spec/limits.js';
import { span, type TimeInterval, widen } from './server-time.js';

/**
 * Where a server's fixed windows start (spec-silent.md: "windows aligned to clock minutes or to the first hit"):
 * at each key's first counted request, or at whole multiples of the window on the epoch clock.
 */
export type WindowAlignment = 'first-hit' | 'clock-minute';

/** One response's view of its window: when it was made and when its window ends (from X-RateLimit-Reset). */
export interface WindowSample {
  at: TimeInterval;
  windowEnd: TimeInterval;
  /** The response to the first counted request of a fresh bucket (Remaining = Limit − 1 in a new window). */
  firstHit: boolean;
}

export const ALIGNMENT_TOLERANCE_MS = 500;

/** Whether a window whose end is known within `windowEnd` can end on a multiple of the window. */
export function endsOnBoundary(windowEnd: TimeInterval, windowMs = RATE_LIMIT_WINDOW_MS, toleranceMs = ALIGNMENT_TOLERANCE_MS): boolean {
  const boundary = Math.ceil((windowEnd.fromMs - toleranceMs) / windowMs) * windowMs;
  return boundary <= windowEnd.toMs + toleranceMs;
}

/**
 * Whether the window can have started at the request that `at` answered. `roundingSlackMs` widens the window's end:
 * a server may round the instant it sends to a second, where a window that starts at a request ends at any millisecond
 * (a window on clock minutes ends on a whole second, so no such slack is taken for it).
 */
export function startsAt(sample: WindowSample, windowMs = RATE_LIMIT_WINDOW_MS, toleranceMs = ALIGNMENT_TOLERANCE_MS, roundingSlackMs = 0): boolean {
  const length = span(sample.at, widen(sample.windowEnd, roundingSlackMs));
  return length.fromMs - toleranceMs <= windowMs && windowMs <= length.toMs + toleranceMs;
}

/** The alignments one sample is consistent with; a sample that is no first hit says nothing about first-hit windows. */
export function alignmentsFitting(sample: WindowSample, windowMs = RATE_LIMIT_WINDOW_MS, roundingSlackMs = 0): WindowAlignment[] {
  const fits: WindowAlignment[] = [];
  if (sample.firstHit && startsAt(sample, windowMs, ALIGNMENT_TOLERANCE_MS, roundingSlackMs)) fits.push('first-hit');
  if (endsOnBoundary(sample.windowEnd, windowMs)) fits.push('clock-minute');
  return fits;
}

export type AlignmentInference =
  | { kind: 'known'; alignment: WindowAlignment }
  /** Both fit every sample: each first hit happened at a boundary. */
  | { kind: 'ambiguous' }
  /** No first hit was seen, so windows that start at the first hit cannot be told from others. */
  | { kind: 'undetermined' }
  /** Neither fits: some other scheme (a sliding window, a window of another length). */
  | { kind: 'neither' };

export function inferAlignment(samples: readonly WindowSample[], windowMs = RATE_LIMIT_WINDOW_MS, roundingSlackMs = 0): AlignmentInference {
  const firstHits = samples.filter((sample) => sample.firstHit);
  if (firstHits.length === 0) return { kind: 'undetermined' };
  const clockMinute = samples.every((sample) => endsOnBoundary(sample.windowEnd, windowMs));
  const firstHit = firstHits.every((sample) => startsAt(sample, windowMs, ALIGNMENT_TOLERANCE_MS, roundingSlackMs));
  if (clockMinute && firstHit) return { kind: 'ambiguous' };
  if (clockMinute) return { kind: 'known', alignment: 'clock-minute' };
  if (firstHit) return { kind: 'known', alignment: 'first-hit' };
  return { kind: 'neither' };
}

export function describeAlignment(alignment: WindowAlignment): string {
  return alignment === 'first-hit' ? "each key's window starts at its first counted request" : 'windows are aligned to clock minutes';
}
