import type { Caller, Expectation } from './rate-limit-model.js';
import type { TimeInterval } from './server-time.js';

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

/** What one X-RateLimit-Reset value said, read in the unit its category showed: the window's end, or whose rule it breaks and how. */
export type ResetReading = { windowEnd: TimeInterval } | { rule: 'RL-RESET' | 'RL-WINDOW'; problem: string };

/**
 * What a session's rate-limit model derived of one answer from the traffic before it (the fuzzer's sequences, the
 * proxy's and a check run's traffic): the bucket's state its answer is due to show, and its headers read against
 * what the session learned of the server's choices. The rules of the Limits judge the answer by it.
 */
export interface ModelledAnswer {
  expectation: Expectation;
  caller: Caller;
  /** What the answer is due where no limit applies. */
  outcome: Outcome;
  /**
   * The server's clock is known exactly (frozen through its control API). In real time its clock may differ from
   * this machine's, so a window's end is judged by the answers (429 or not), not by Reset's instant.
   */
  exactClock: boolean;
  /** The category's window alignment was known before this answer: the model opened the window where the server does. */
  alignmentKnown: boolean;
  /** Its X-RateLimit-Reset, where it counted in its bucket and a unit reads it (or none can). */
  reset?: ResetReading;
  /** Why its Retry-After does not fit the wait to the window's end, where it counted in its bucket and does not. */
  retryAfterProblem?: string;
  /**
   * A 429 the model did not see coming, whose Remaining is not 0: it may be another limit's (wrong codes: not
   * shown), so its Retry-After need not fit a one-minute window, and on a verification it may come early.
   */
  unforeseen429: boolean;
}
