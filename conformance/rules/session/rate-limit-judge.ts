import { HEADERS, RATE_LIMITS } from '../../../src/spec/limits.js';
import { integerHeader, type Exchange } from '../../common/exchange.js';
import { departureMessage, FUZZ_RULES, type FuzzRuleId, judgeExchange, type Knowledge } from '../index.js';
import { isClientError, isSuccess } from '../envelope.js';
import type { Caller, Expectation } from '../model/rate-limit-model.js';
import { widen, type TimeInterval } from '../model/server-time.js';
import type { ServerChoices } from './server-choices.js';

/** What a request's answer must be when no limit applies: the spec's status, or one it leaves open. */
export type Outcome =
  /** 2xx with success: true. */
  | 'success'
  /** 2xx with a JSON object (the health body, whose table shows no success field). */
  | 'health'
  /** A 4xx other than 429, with an error envelope (the spec shows no status). */
  | 'refusal'
  /** Any answer below 500 (the payload is not shown, so neither is its verdict). */
  | 'handled';

export interface Finding {
  rule: FuzzRuleId;
  message: string;
}

/** Who sent the request, when the server made its answer, and what the session learned of the server so far. */
export interface JudgeContext {
  caller: Caller;
  at: TimeInterval;
  choices: ServerChoices;
  /**
   * The server's clock is known exactly (frozen through its control API). In real time its clock may differ
   * from this machine's, so a window's end is judged by the answers (429 or not), not by Reset's instant.
   */
  exactClock: boolean;
}

export interface Judgement {
  findings: Finding[];
  /** X-RateLimit-Remaining as sent, for a model that could not know it in advance. */
  remaining: number | undefined;
  /** When the window ends, as X-RateLimit-Reset says, once its unit is known. */
  windowEnd: TimeInterval | undefined;
}

/** "the auth bucket of 198.18.0.3", "the read bucket of player 2". */
function bucketName(expectation: Expectation, caller: Caller): string {
  if (expectation.category === undefined) return 'no bucket';
  const owner = RATE_LIMITS[expectation.category].scope === 'player' ? caller.playerId : caller.ip;
  return `the ${expectation.category} bucket of ${owner}`;
}

/** How far a window end read from X-RateLimit-Reset may lie from the model's, beyond the reading's own rounding. */
const WINDOW_END_SLACK_MS = 1_000;

function judgeStatus(exchange: Exchange, expectation: Expectation, outcome: Outcome, caller: Caller): Finding[] {
  const { status } = exchange;
  const bucket = bucketName(expectation, caller);
  if (status >= 500) return [{ rule: 'RL-WINDOW', message: `answered ${status}: a server error` }];
  if (expectation.nearBoundary) return [];
  if (expectation.limited === true && status !== 429) {
    const rule: FuzzRuleId = caller.gameOrigin && expectation.category === 'auth' ? 'RL-AUTH-IP' : 'RL-WINDOW';
    return [{ rule, message: `answered ${status}, but ${bucket} had no requests left (${expectation.limit} a minute): expected 429` }];
  }
  if (expectation.limited !== true && status === 429) {
    const rule: FuzzRuleId = expectation.counted === false ? 'RL-EXEMPT' : 'RL-WINDOW';
    const why = expectation.counted === false ? 'a game origin is not counted in this bucket' : `${bucket} still had ${(expectation.remaining ?? 0) + 1} left`;
    return [{ rule, message: `answered 429, but ${why}` }];
  }
  if (status === 429) return [];
  if ((outcome === 'success' || outcome === 'health') && !isSuccess(exchange))
    return [{ rule: 'RL-WINDOW', message: `answered ${status} where no limit applied: expected success` }];
  if (outcome === 'refusal' && !isClientError(exchange)) return [{ rule: 'ENV-ERROR', message: `answered ${status}: expected a 4xx refusal` }];
  return [];
}

/** X-RateLimit-Remaining and -Reset and a 429's Retry-After against the model's bucket; their presence and form, and Limit, are the rules' (rules/rate-limits.ts). */
function judgeHeaders(exchange: Exchange, expectation: Expectation, context: JudgeContext): Judgement {
  const { at, choices } = context;
  const bucket = bucketName(expectation, context.caller);
  const findings: Finding[] = [];
  const remaining = integerHeader(exchange, HEADERS.rateLimitRemaining);
  const reset = integerHeader(exchange, HEADERS.rateLimitReset);
  const judged: Judgement = { findings, remaining, windowEnd: undefined };
  if (expectation.counted !== true) return judged;
  const firstHit = expectation.remaining === (expectation.limit ?? 0) - 1;
  if (remaining !== undefined && !expectation.nearBoundary && remaining !== expectation.remaining) {
    const used = (expectation.limit ?? 0) - (expectation.remaining ?? 0);
    findings.push({
      rule: 'RL-REMAINING',
      message: `X-RateLimit-Remaining ${remaining}, expected ${expectation.remaining}: this is request ${used} of ${bucket} in its window`,
    });
  }
  if (reset !== undefined) {
    // The model opened this window as the category's alignment was known before this answer, if it was.
    const alignmentKnown = choices.alignments.has(expectation.category!);
    const verdict = choices.readReset({ value: reset, at }, firstHit && !expectation.nearBoundary, expectation.category!);
    if ('problem' in verdict) findings.push({ rule: verdict.rule, message: verdict.problem });
    if ('windowEnd' in verdict) {
      judged.windowEnd = verdict.windowEnd;
      const modelEnd = expectation.windowEndMs;
      const reading = widen(verdict.windowEnd, WINDOW_END_SLACK_MS);
      if (
        context.exactClock &&
        modelEnd !== undefined &&
        !expectation.nearBoundary &&
        alignmentKnown &&
        (modelEnd < reading.fromMs || modelEnd > reading.toMs)
      ) {
        findings.push({
          rule: 'RL-WINDOW',
          message: `X-RateLimit-Reset ${reset} ends the window of ${bucket} at ${new Date(verdict.windowEnd.fromMs).toISOString()}, but that window opened so as to end at ${new Date(modelEnd).toISOString()}`,
        });
      }
    }
  }
  const retryAfter = exchange.status === 429 ? integerHeader(exchange, HEADERS.retryAfter) : undefined;
  if (retryAfter !== undefined) {
    const end = expectation.windowEndMs;
    const wait = end === undefined || expectation.nearBoundary ? undefined : { fromMs: end - at.toMs, toMs: end - at.fromMs };
    const problem = choices.checkRetryAfter(retryAfter, wait);
    if (problem !== undefined) findings.push({ rule: 'RL-429', message: problem });
  }
  return judged;
}

/** Every way one response disagrees with the rate-limit model; an empty list when it agrees. */
export function judge(exchange: Exchange, expectation: Expectation, outcome: Outcome, context: JudgeContext): Judgement {
  const judged = judgeHeaders(exchange, expectation, context);
  judged.findings.unshift(...judgeStatus(exchange, expectation, outcome, context.caller));
  return judged;
}

/** The departures of one response from the rules the fuzzer reports beside its model's (the envelopes, the headers' form). */
export function ruleFindings(exchange: Exchange, knowledge: Knowledge): Finding[] {
  return judgeExchange(exchange, knowledge, FUZZ_RULES)
    .filter((verdict) => !verdict.holds)
    .map((verdict) => ({ rule: verdict.rule as FuzzRuleId, message: departureMessage(verdict) }));
}
