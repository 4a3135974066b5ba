/** Checks that ran out of time before the run stops waiting on the target: one may meet a route that hangs, two mean it is slow. */
const LATE_CHECKS_TO_GIVE_UP = 2;
/**
 * A check's budget, in requests' deadlines: the checks that send most (a bucket of 60 spent, a property's runs) take
 * a few seconds against a server that answers in milliseconds, and stay far within it on a loaded machine.
 */
const CHECK_BUDGET_IN_REQUESTS = 4;

/**
 * How long the run waits on the target's answers: one request for `requestMs`, one check for four times that in all
 * (its planned waits, for a rate-limit window or the auth budget, aside: they are the plan). Once two checks ran
 * out of time, the checks left are skipped with the reason, so that no target holds a run for more than its plan
 * and a few budgets.
 */
export class AnswerBudget {
  readonly requestMs: number;
  readonly checkMs: number;
  readonly #now: () => number;
  /** Spent in the running check; none outside a check (the fuzzer's requests have each their own deadline only). */
  #spentMs: number | undefined;
  /** Requests of the check in flight, and since when one has been: requests sent together spend their time once. */
  #inFlight = 0;
  #busySince = 0;
  #lateInThisCheck = false;
  readonly #late: string[] = [];

  constructor(requestMs: number, now: () => number = Date.now) {
    this.requestMs = requestMs;
    this.checkMs = CHECK_BUDGET_IN_REQUESTS * requestMs;
    this.#now = now;
  }

  /** A check starts: its own budget, whole. */
  startCheck(): void {
    this.#spentMs = 0;
    this.#busySince = this.#now();
    this.#lateInThisCheck = false;
  }

  /**
   * A request is sent: how long it may take, whether that is the check's budget rather than one request's, and
   * `done` to call once it is answered. The check spends the time during which any of its requests was in flight.
   */
  begin(): { ms: number; byCheck: boolean; done(): void } {
    const ms = this.#deadlineMs();
    if (this.#inFlight++ === 0) this.#busySince = this.#now();
    return { ...ms, done: () => this.#end() };
  }

  #deadlineMs(): { ms: number; byCheck: boolean } {
    if (this.#spentMs === undefined) return { ms: this.requestMs, byCheck: false };
    const spent = this.#spentMs + (this.#inFlight > 0 ? this.#now() - this.#busySince : 0);
    const left = Math.max(1, this.checkMs - spent);
    return left < this.requestMs ? { ms: left, byCheck: true } : { ms: this.requestMs, byCheck: false };
  }

  #end(): void {
    if (--this.#inFlight > 0) return;
    if (this.#spentMs !== undefined) this.#spentMs += this.#now() - this.#busySince;
  }

  /** The check ran out of time waiting on `what` (a request): counted once per check. */
  late(what: string): void {
    if (this.#lateInThisCheck) return;
    this.#lateInThisCheck = true;
    this.#late.push(what);
  }

  /** Why the run stopped waiting on the target, once it has. */
  get gaveUp(): string | undefined {
    if (this.#late.length < LATE_CHECKS_TO_GIVE_UP) return undefined;
    return `the target kept ${this.#late.length} checks waiting past their time (on ${this.#late.join(', ')}): the checks left are not run`;
  }
}
