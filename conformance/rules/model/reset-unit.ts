import { RATE_LIMIT_WINDOW_MS } from '../../../src/spec/limits.js';
import { describeInterval, overlaps, type TimeInterval } from './server-time.js';

/**
 * The readings of X-RateLimit-Reset the suite accepts (the spec: "a timestamp-like value, unit unspecified";
 * spec-silent.md: epoch seconds, epoch milliseconds or seconds remaining).
 */
export const RESET_UNITS = ['epoch-seconds', 'epoch-milliseconds', 'seconds-remaining'] as const;
export type ResetUnit = (typeof RESET_UNITS)[number];

/** How far a window's end may lie from the response that names it. */
export interface Plausibility {
  /** A window open now ends at most one window from now. */
  windowMs: number;
  /** Clock and rounding slack on either side. */
  slackMs: number;
}

export const DEFAULT_PLAUSIBILITY: Plausibility = { windowMs: RATE_LIMIT_WINDOW_MS, slackMs: 2_000 };

/**
 * A window of up to a day: a Reset that reads so, and not within the table's minute, is a timestamp-like value as
 * RL-RESET asks, of a window longer than the minute the Limits table gives (RL-WINDOW's to judge).
 */
export const LONG_WINDOW_PLAUSIBILITY: Plausibility = { windowMs: 24 * 60 * 60_000, slackMs: 2_000 };

/** How long after the response a window that a Reset names in a unit ends, read as broadly as a day allows; undefined if it cannot be read so. */
export function longWindowEnd(sample: ResetSample): ResetReading | undefined {
  return readReset(sample).length > 0 ? undefined : readReset(sample, LONG_WINDOW_PLAUSIBILITY)[0];
}

export interface ResetReading {
  unit: ResetUnit;
  /** When the window ends, on the server's clock, as this reading has it. */
  windowEnd: TimeInterval;
}

/** A Reset value and when the response carrying it was made. */
export interface ResetSample {
  value: number;
  at: TimeInterval;
}

/** The window's end a value names in a unit; whole seconds may be floored or rounded up. */
export function windowEndFor(unit: ResetUnit, value: number, at: TimeInterval): TimeInterval {
  switch (unit) {
    case 'epoch-seconds':
      return { fromMs: value * 1000 - 999, toMs: value * 1000 + 999 };
    case 'epoch-milliseconds':
      return { fromMs: value, toMs: value };
    case 'seconds-remaining':
      return { fromMs: at.fromMs + value * 1000 - 999, toMs: at.toMs + value * 1000 + 999 };
  }
}

/** Where the end of a window that is open at `at` can lie: not before `at`, at most one window after it. */
export function plausibleWindowEnd(at: TimeInterval, plausibility: Plausibility = DEFAULT_PLAUSIBILITY): TimeInterval {
  return { fromMs: at.fromMs - plausibility.slackMs, toMs: at.toMs + plausibility.windowMs + plausibility.slackMs };
}

/** Every accepted reading of one value that puts the window's end where it can be. */
export function readReset(sample: ResetSample, plausibility: Plausibility = DEFAULT_PLAUSIBILITY): ResetReading[] {
  if (!Number.isSafeInteger(sample.value) || sample.value < 0) return [];
  const plausible = plausibleWindowEnd(sample.at, plausibility);
  return RESET_UNITS.flatMap((unit) => {
    const windowEnd = windowEndFor(unit, sample.value, sample.at);
    return overlaps(windowEnd, plausible) ? [{ unit, windowEnd }] : [];
  });
}

export type ResetInference =
  /** No samples. */
  | { kind: 'none' }
  /** One unit fits every sample; `readings` are in sample order. */
  | { kind: 'unit'; unit: ResetUnit; readings: ResetReading[] }
  /** Sample `index` fits no accepted reading. */
  | { kind: 'unreadable'; index: number }
  /** Each sample fits some unit, but no unit fits them all: `units[i]` are those sample i fits. */
  | { kind: 'inconsistent'; units: ResetUnit[][] }
  /** Several units fit every sample (the values cannot tell them apart). */
  | { kind: 'ambiguous'; units: ResetUnit[] };

/** The one unit a server uses, from several of its responses: it must fit all of them. */
export function inferResetUnit(samples: readonly ResetSample[], plausibility: Plausibility = DEFAULT_PLAUSIBILITY): ResetInference {
  if (samples.length === 0) return { kind: 'none' };
  const readings = samples.map((sample) => readReset(sample, plausibility));
  const unreadable = readings.findIndex((fits) => fits.length === 0);
  if (unreadable >= 0) return { kind: 'unreadable', index: unreadable };
  const common = RESET_UNITS.filter((unit) => readings.every((fits) => fits.some((reading) => reading.unit === unit)));
  if (common.length === 0) return { kind: 'inconsistent', units: readings.map((fits) => fits.map((reading) => reading.unit)) };
  if (common.length > 1) return { kind: 'ambiguous', units: common };
  const unit = common[0]!;
  return { kind: 'unit', unit, readings: readings.map((fits) => fits.find((reading) => reading.unit === unit)!) };
}

/** A rule that X-RateLimit-Reset values break, and how (worded to follow "expected" in a check's failure). */
export type ResetProblem = { rule: 'RL-RESET' | 'RL-WINDOW'; problem: string };

/**
 * What Reset values read together break, if anything (nothing either while no unit stands out): a value that reads as
 * no window end within the minute is RL-WINDOW's where it reads as a longer window's end (RL-RESET asks only for a
 * timestamp-like value), else RL-RESET's; values in no one unit are RL-RESET's. Only `lengthJudged` are judged for a
 * longer window, so a caller that judged the others already can leave them out; `inference` must be of `samples`.
 */
export function resetProblem(samples: readonly ResetSample[], inference = inferResetUnit(samples), lengthJudged = samples): ResetProblem | undefined {
  if (inference.kind === 'inconsistent') {
    const described = inference.units.map((units, index) => `response ${index + 1}: ${samples[index]!.value} as ${units.join(' or ')}`).join('; ');
    return { rule: 'RL-RESET', problem: `X-RateLimit-Reset in one unit on every response (${described})` };
  }
  if (inference.kind !== 'unreadable') return undefined;
  for (const { value, at } of lengthJudged) {
    const long = longWindowEnd({ value, at });
    if (long === undefined) continue;
    const afterS = Math.round((long.windowEnd.fromMs - at.toMs) / 1000);
    const unit = describeResetUnit(long.unit);
    return { rule: 'RL-WINDOW', problem: `a window of a minute: X-RateLimit-Reset ${value} (${unit}) ends it ${afterS} s after the answer` };
  }
  const { value, at } = samples[inference.index]!;
  const readings = `epoch seconds, epoch milliseconds or seconds remaining of a window ending between ${describeInterval(plausibleWindowEnd(at))}`;
  return { rule: 'RL-RESET', problem: `X-RateLimit-Reset that reads as ${readings}, not ${value} (the response was made ${describeInterval(at)})` };
}

/**
 * Whether two responses name the same window: their ends, read in `unit`, overlap within `toleranceMs`.
 * A window that restarted names an end at least (nearly) a window later; one that did not, the same end.
 */
export function sameWindow(unit: ResetUnit, a: ResetSample, b: ResetSample, toleranceMs = 1_000): boolean {
  const endA = windowEndFor(unit, a.value, a.at);
  const endB = windowEndFor(unit, b.value, b.at);
  return endA.fromMs - toleranceMs <= endB.toMs && endB.fromMs - toleranceMs <= endA.toMs;
}

export function describeResetUnit(unit: ResetUnit): string {
  switch (unit) {
    case 'epoch-seconds':
      return "Unix epoch seconds of the window's end";
    case 'epoch-milliseconds':
      return "Unix epoch milliseconds of the window's end";
    case 'seconds-remaining':
      return 'seconds remaining until the window ends';
  }
}
