import { HEADERS } from '../../../src/spec/limits.js';
import { type Exchange, integerHeader } from '../../common/exchange.js';
import type { ModelledAnswer, Outcome } from '../model/modelled-answer.js';
import type { Caller, Expectation } from '../model/rate-limit-model.js';
import type { TimeInterval } from '../model/server-time.js';
import type { ServerChoices } from './server-choices.js';

/** Who sent the request, when the server made its answer, and what the session learned of the server so far. */
export interface ModelContext {
  caller: Caller;
  at: TimeInterval;
  choices: ServerChoices;
  /** The server's clock is known exactly (frozen through its control API). */
  exactClock: boolean;
}

/** What the model made of an answer, with what it showed of its bucket for the model to follow. */
export interface ModelledReading {
  modelled: ModelledAnswer;
  /** X-RateLimit-Remaining as sent, for a model that could not know it in advance. */
  remaining: number | undefined;
  /** When the window ends, as X-RateLimit-Reset says, once its unit is known. */
  windowEnd: TimeInterval | undefined;
}

/**
 * An answer read against the model's expectation of its bucket, once, for the rules to judge: its Reset in the unit
 * its category showed (learning the unit and the category's alignment while they are open), its Retry-After
 * against the wait to the window's end (learning its unit). Where the request did not count, only its status is
 * the rules' to judge.
 */
export function modelAnswer(exchange: Exchange, expectation: Expectation, outcome: Outcome, context: ModelContext): ModelledReading {
  const { caller, at, choices, exactClock } = context;
  const modelled: ModelledAnswer = { expectation, caller, outcome, exactClock, alignmentKnown: false, unforeseen429: false };
  const reading: ModelledReading = { modelled, remaining: integerHeader(exchange, HEADERS.rateLimitRemaining), windowEnd: undefined };
  const category = expectation.category;
  if (expectation.counted !== true || category === undefined) return reading;
  modelled.alignmentKnown = choices.alignments.has(category);
  const reset = integerHeader(exchange, HEADERS.rateLimitReset);
  if (reset !== undefined) {
    const firstHit = expectation.remaining === (expectation.limit ?? 0) - 1;
    const verdict = choices.readReset({ value: reset, at }, firstHit && !expectation.nearBoundary, category);
    if ('problem' in verdict) modelled.reset = { rule: verdict.rule, problem: verdict.problem };
    if ('windowEnd' in verdict) {
      modelled.reset = { windowEnd: verdict.windowEnd };
      reading.windowEnd = verdict.windowEnd;
    }
  }
  const retryAfter = exchange.status === 429 ? integerHeader(exchange, HEADERS.retryAfter) : undefined;
  if (retryAfter !== undefined) {
    const end = expectation.windowEndMs;
    const wait = end === undefined || expectation.nearBoundary ? undefined : { fromMs: end - at.toMs, toMs: end - at.fromMs };
    const problem = choices.checkRetryAfter(retryAfter, wait);
    if (problem !== undefined) modelled.retryAfterProblem = problem;
  }
  return reading;
}
