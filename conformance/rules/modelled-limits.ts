import { HEADERS, RATE_LIMITS } from '../../src/spec/limits.js';
import { type Exchange, integerHeader } from '../common/exchange.js';
import { isClientError, isSuccess } from './envelope.js';
import type { ModelledAnswer } from './model/modelled-answer.js';
import { widen } from './model/server-time.js';
import { judged, type Judgement, type Knowledge } from './rule.js';

/**
 * The Limits' judging of an answer against the session's rate-limit model (`knowledge.modelledAnswer`): each rule of
 * the Limits, and ENV-ERROR where a refusal is due, takes its part here, so that the fuzzer's sequences, the proxy's
 * and a check run's traffic are judged by the same rules.
 */

type StatusRule = 'RL-WINDOW' | 'RL-AUTH-IP' | 'RL-EXEMPT' | 'ENV-ERROR';

const VERIFY_PATH = '/api/auth/verify-email';
/** How far a window end read from X-RateLimit-Reset may lie from the model's, beyond the reading's own rounding. */
const WINDOW_END_SLACK_MS = 1_000;

/** "the auth bucket of 198.18.0.3", "the read bucket of player 2". */
function bucketName({ expectation, caller }: ModelledAnswer): string {
  if (expectation.category === undefined) return 'no bucket';
  const owner = RATE_LIMITS[expectation.category].scope === 'player' ? caller.playerId : caller.ip;
  return `the ${expectation.category} bucket of ${owner}`;
}

/** The one departure an answer's status shows against the model, and whose rule it is; none where it agrees. */
function statusDeparture(exchange: Exchange, modelled: ModelledAnswer): { rule: StatusRule; message: string } | undefined {
  const { status } = exchange;
  const { expectation, caller, outcome } = modelled;
  if (status >= 500) return { rule: 'RL-WINDOW', message: `answered ${status}: a server error` };
  if (expectation.nearBoundary) return undefined;
  if (expectation.limited === true && status !== 429) {
    const rule = caller.gameOrigin && expectation.category === 'auth' ? 'RL-AUTH-IP' : 'RL-WINDOW';
    return { rule, message: `answered ${status}, but ${bucketName(modelled)} had no requests left (${expectation.limit} a minute): expected 429` };
  }
  if (expectation.limited !== true && status === 429) {
    if (expectation.counted === false) return { rule: 'RL-EXEMPT', message: 'answered 429, but a game origin is not counted in this bucket' };
    return { rule: 'RL-WINDOW', message: `answered 429, but ${bucketName(modelled)} still had ${(expectation.remaining ?? 0) + 1} left` };
  }
  if (status === 429) return undefined;
  if ((outcome === 'success' || outcome === 'health') && !isSuccess(exchange))
    return { rule: 'RL-WINDOW', message: `answered ${status} where no limit applied: expected success` };
  if (outcome === 'refusal' && !isClientError(exchange)) return { rule: 'ENV-ERROR', message: `answered ${status}: expected a 4xx refusal` };
  return undefined;
}

/** Whether a modelled answer is a rule's to judge: what each rule asks of the model's answers. */
function appliesTo(rule: StatusRule, modelled: ModelledAnswer): boolean {
  const { caller, expectation, outcome } = modelled;
  if (rule === 'ENV-ERROR') return outcome === 'refusal';
  if (rule === 'RL-WINDOW') return true;
  // A game origin's auth request stays counted by IP; its other requests are exempt.
  return caller.gameOrigin && (expectation.category === 'auth') === (rule === 'RL-AUTH-IP');
}

/** A rule's judgement of a modelled answer's status: what the model says it is due (429 or not, success, a refusal). */
export function modelledStatus(rule: StatusRule, exchange: Exchange, knowledge: Knowledge): Judgement[] {
  const modelled = knowledge.modelledAnswer;
  if (modelled === undefined || !appliesTo(rule, modelled)) return [];
  if (rule === 'RL-WINDOW' && modelled.unforeseen429 && knowledge.path === VERIFY_PATH) return [];
  const departure = statusDeparture(exchange, modelled);
  const own = departure?.rule === rule ? departure.message : undefined;
  return [judged('model-status', own === undefined, "the status the session's bucket model is due", own)];
}

/** RL-REMAINING: X-RateLimit-Remaining one less per request its bucket counted. */
export function modelledRemaining(exchange: Exchange, knowledge: Knowledge): Judgement[] {
  const modelled = knowledge.modelledAnswer;
  const remaining = integerHeader(exchange, HEADERS.rateLimitRemaining);
  if (modelled?.expectation.counted !== true || remaining === undefined || modelled.expectation.nearBoundary) return [];
  const { limit = 0, remaining: due } = modelled.expectation;
  const used = limit - (due ?? 0);
  return [
    judged(
      'model-remaining',
      remaining === due,
      `X-RateLimit-Remaining ${due}`,
      `X-RateLimit-Remaining ${remaining}, expected ${due}: this is request ${used} of ${bucketName(modelled)} in its window`,
    ),
  ];
}

/** Its X-RateLimit-Reset read in the unit its category showed: a problem of `rule`'s, if any. */
export function modelledResetReading(rule: 'RL-RESET' | 'RL-WINDOW', knowledge: Knowledge): Judgement[] {
  const reading = knowledge.modelledAnswer?.reset;
  if (reading === undefined || 'windowEnd' in reading || reading.rule !== rule) return [];
  return [judged('model-reset-reading', false, 'X-RateLimit-Reset read in the unit its category showed', reading.problem)];
}

/** RL-WINDOW: where the server's clock is known exactly, Reset ends the window the model opened. */
export function modelledWindowEnd(exchange: Exchange, knowledge: Knowledge): Judgement[] {
  const modelled = knowledge.modelledAnswer;
  const reading = modelled?.reset;
  if (modelled === undefined || reading === undefined || !('windowEnd' in reading)) return [];
  if (modelled.unforeseen429 && knowledge.path === VERIFY_PATH) return [];
  const modelEnd = modelled.expectation.windowEndMs;
  if (!modelled.exactClock || modelEnd === undefined || modelled.expectation.nearBoundary || !modelled.alignmentKnown) return [];
  const widened = widen(reading.windowEnd, WINDOW_END_SLACK_MS);
  const reset = exchange.headers[HEADERS.rateLimitReset];
  return [
    judged(
      'model-window-end',
      modelEnd >= widened.fromMs && modelEnd <= widened.toMs,
      `X-RateLimit-Reset ending the window the model opened, at ${new Date(modelEnd).toISOString()}`,
      `X-RateLimit-Reset ${reset} ends the window of ${bucketName(modelled)} at ${new Date(reading.windowEnd.fromMs).toISOString()}, but that window opened so as to end at ${new Date(modelEnd).toISOString()}`,
    ),
  ];
}

/** RL-429: a 429's Retry-After read against the wait to the window's end; not where the 429 may be another limit's. */
export function modelledRetryAfter(exchange: Exchange, knowledge: Knowledge): Judgement[] {
  const modelled = knowledge.modelledAnswer;
  if (modelled === undefined || exchange.status !== 429 || modelled.unforeseen429) return [];
  const problem = modelled.retryAfterProblem;
  return [judged('model-retry-after', problem === undefined, "a Retry-After that fits the wait to the window's end", problem)];
}
