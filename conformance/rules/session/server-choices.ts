import { RATE_LIMIT_WINDOW_MS, type RateLimitCategory } from '../../../src/spec/limits.js';
import { describeResetUnit, inferResetUnit, readReset, type ResetProblem, resetProblem, type ResetSample, type ResetUnit } from '../model/reset-unit.js';
import { fitsWait, RETRY_AFTER_UNITS, type RetryAfterUnit, readingIn } from '../model/retry-after.js';
import type { TimeInterval } from '../model/server-time.js';
import { describeAlignment, inferAlignment, type WindowAlignment, type WindowSample } from '../model/window-alignment.js';
import { counted } from '../../common/counted.js';

const ROUNDING_SLACK_MS = 999;
/** Slack when matching Retry-After against the window and the expected wait: whole-second rounding on both sides. */
const RETRY_AFTER_SLACK_MS = 2_000;

/** What one X-RateLimit-Reset value says: when its window ends, or why it cannot be read (a window longer than the minute is RL-WINDOW's). */
export type ResetVerdict = { windowEnd: TimeInterval } | ResetProblem | { undecided: true };

/** What the Retry-After values of a session showed: how many were read, how many against a known wait, the units learned. */
interface RetryAfterSeen {
  read: number;
  judged: number;
  units: Set<RetryAfterUnit>;
}

/**
 * The choices the spec leaves to a server (the units of X-RateLimit-Reset and Retry-After, where each category's
 * windows start), learned from its first responses and then held for the whole session: a later response that
 * reads otherwise is a disagreement, not a new choice.
 */
export class ServerChoices {
  retryAfterUnit: RetryAfterUnit | undefined;
  /** Shared by every copy: a report speaks of the whole session, though each of its runs learns the unit afresh. */
  #retryAfterSeen: RetryAfterSeen = { read: 0, judged: 0, units: new Set() };
  /** What has been learned so far, learning on apart from this one: each run of a replayable session starts from a copy. */
  copy(): ServerChoices {
    const copy = new ServerChoices();
    copy.retryAfterUnit = this.retryAfterUnit;
    copy.#retryAfterSeen = this.#retryAfterSeen;
    for (const [category, unit] of this.resetUnits) copy.resetUnits.set(category, unit);
    for (const [category, alignment] of this.alignments) copy.alignments.set(category, alignment);
    for (const [category, samples] of this.#resetSamples) copy.#resetSamples.set(category, [...samples]);
    for (const [category, samples] of this.#windowSamples) copy.#windowSamples.set(category, [...samples]);
    return copy;
  }

  /**
   * X-RateLimit-Reset's unit, by category: the unit is unspecified and nothing makes it one per server (a sign-in
   * limiter of its own may count seconds remaining where the others send epoch seconds), so each category learns its own.
   */
  readonly resetUnits = new Map<RateLimitCategory, ResetUnit>();
  /** Where windows start, by category: a server may count auth on clock minutes and the rest from the first request. */
  readonly alignments = new Map<RateLimitCategory, WindowAlignment>();
  readonly #resetSamples = new Map<RateLimitCategory, ResetSample[]>();
  readonly #windowSamples = new Map<RateLimitCategory, WindowSample[]>();

  /** Where a category's windows start: as it showed, else as the first category shown (a server mostly aligns them all alike). */
  alignmentFor(category: RateLimitCategory): WindowAlignment | undefined {
    return this.alignments.get(category) ?? this.alignments.values().next().value;
  }

  /** Reads a Reset value of a category's bucket in the category's held unit, learning the unit (and the category's alignment) while they are open. */
  readReset(sample: ResetSample, firstHit: boolean, category: RateLimitCategory): ResetVerdict {
    const verdict = this.#readInUnit(sample, category);
    if ('windowEnd' in verdict) this.#learnAlignment(category, { at: sample.at, windowEnd: verdict.windowEnd, firstHit });
    return verdict;
  }

  #readInUnit(sample: ResetSample, category: RateLimitCategory): ResetVerdict {
    const held = this.resetUnits.get(category);
    if (held !== undefined) {
      const reading = readReset(sample).find((candidate) => candidate.unit === held);
      if (reading !== undefined) return { windowEnd: reading.windowEnd };
      return {
        rule: 'RL-RESET',
        problem: `X-RateLimit-Reset ${sample.value} no longer reads as ${describeResetUnit(held)} of a window open now, as earlier ${category} responses did`,
      };
    }
    const samples = this.#resetSamples.get(category) ?? [];
    this.#resetSamples.set(category, samples);
    samples.push(sample);
    const inference = inferResetUnit(samples);
    if (inference.kind === 'unit') {
      this.resetUnits.set(category, inference.unit);
      this.#resetSamples.delete(category);
      return { windowEnd: inference.readings.at(-1)!.windowEnd };
    }
    // Each answer is read with those before it, but only its own window's length is judged: theirs were, as they came.
    return resetProblem(samples, inference, [sample]) ?? { undecided: true };
  }

  #learnAlignment(category: RateLimitCategory, sample: WindowSample): void {
    if (this.alignments.has(category)) return;
    const samples = this.#windowSamples.get(category) ?? [];
    this.#windowSamples.set(category, samples);
    samples.push(sample);
    // A server may round the instant it sends, even in milliseconds (1795259828000): a second either way, where a
    // window starts at a request; a window on clock minutes ends on a whole second whatever the rounding.
    const inference = inferAlignment(samples, RATE_LIMIT_WINDOW_MS, ROUNDING_SLACK_MS);
    if (inference.kind === 'known') this.alignments.set(category, inference.alignment);
  }

  /**
   * Reads a Retry-After value against the wait the model expects (undefined when it cannot know): a problem, or
   * undefined when some reading fits. Its unit is learned only when exactly one reading fits the expected wait,
   * never assumed: a server counting minutes answers 1 where one counting seconds answers 1 too.
   */
  checkRetryAfter(value: number, expectedWaitMs: TimeInterval | undefined): string | undefined {
    if (!Number.isSafeInteger(value) || value < 0) return `Retry-After ${value} is not a non-negative integer`;
    this.#retryAfterSeen.read++;
    const units = this.retryAfterUnit === undefined ? RETRY_AFTER_UNITS : [this.retryAfterUnit];
    const readings = units.map((unit) => readingIn(value, unit));
    const withinWindow = readings.filter((reading) => reading.waitMs <= RATE_LIMIT_WINDOW_MS + RETRY_AFTER_SLACK_MS);
    if (withinWindow.length === 0) return `Retry-After ${value} (${units.join(' or ')}) asks for a wait longer than the one-minute window`;
    if (expectedWaitMs === undefined) return undefined;
    this.#retryAfterSeen.judged++;
    const fitting = withinWindow.filter((reading) => fitsWait(reading, expectedWaitMs, RETRY_AFTER_SLACK_MS));
    if (fitting.length === 1) {
      this.retryAfterUnit = fitting[0]!.unit;
      this.#retryAfterSeen.units.add(this.retryAfterUnit);
    }
    if (fitting.length > 0) return undefined;
    const asked = withinWindow.map((reading) => `${reading.waitMs / 1000} s in ${reading.unit}`).join(', ');
    return `Retry-After ${value} asks for ${asked}, but the window ends in ${Math.round(expectedWaitMs.fromMs / 1000)}–${Math.round(expectedWaitMs.toMs / 1000)} s`;
  }

  /** Each unit learned, with the categories that showed it: "Unix epoch seconds of the window's end (public, read)". */
  #describeResetUnits(): string {
    const categoriesByUnit = new Map<ResetUnit, RateLimitCategory[]>();
    for (const [category, unit] of this.resetUnits) categoriesByUnit.set(unit, [...(categoriesByUnit.get(unit) ?? []), category]);
    return [...categoriesByUnit].map(([unit, categories]) => `${describeResetUnit(unit)} (${categories.join(', ')})`).join('; ');
  }

  /** Retry-After's unit as the whole session showed it, or why none was learned from the `answered429` 429s it saw. */
  #describeRetryAfter(answered429: number): string {
    const { read, judged, units } = this.#retryAfterSeen;
    if (units.size > 0) return `Retry-After: ${[...units].join(', ')}`;
    if (answered429 === 0) return 'Retry-After: unit not known: no 429 seen';
    if (read === 0) return `Retry-After: unit not known: none of the ${counted(answered429, '429')} seen carried a readable Retry-After`;
    if (judged === 0)
      return `Retry-After: unit not known: ${counted(read, 'value')} read, none where the model knew the wait (each near a window's end), so none was judged`;
    return `Retry-After: unit not known: ${counted(judged, 'value')} judged against the wait, none fitting it in one unit alone`;
  }

  /** The choices learned so far, for the report, with how many answers were 429s (what Retry-After could be learned from). */
  describe(answered429: number): string[] {
    return [
      this.resetUnits.size === 0 ? 'X-RateLimit-Reset: unit not yet known' : `X-RateLimit-Reset: ${this.#describeResetUnits()}`,
      this.alignments.size === 0
        ? 'windows: alignment not yet known'
        : `windows: ${[...this.alignments].map(([category, alignment]) => `${category} ${describeAlignment(alignment)}`).join('; ')}`,
      this.#describeRetryAfter(answered429),
    ];
  }
}
