import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';
import type { Call } from './call.js';
import type { Exchange } from '../common/exchange.js';

/** Whatever sends the control API's requests: the run's target. */
interface ControlSender {
  send(call: Call): Promise<Exchange>;
}

/** How old (local time) the latest reading of the target's clock may be and still stand for the time a request is sent. */
const RECENT_READING_MS = 20;

/** The target's clock through its control API: checks of expiry move it instead of waiting. */
export class ClockControl {
  readonly #target: ControlSender;
  readonly #onAdvance: (ms: number) => void;
  /** The latest time the target's clock answered, and when (local time) it was read. */
  #latest: { nowMs: number; readAt: number } | undefined;

  /** `onAdvance` hears of every move, whoever made it, so that the scheduler's budgets follow the target's time. */
  constructor(target: ControlSender, onAdvance: (ms: number) => void = () => {}) {
    this.#target = target;
    this.#onAdvance = onAdvance;
  }

  async #post(change: Record<string, unknown>): Promise<number> {
    const { method, pattern } = CONTROL_ROUTES.setClock;
    const exchange = await this.#target.send({ method, path: pattern, json: change });
    const body = exchange.body as { nowMs?: unknown } | undefined;
    if (exchange.status !== 200 || typeof body?.nowMs !== 'number') throw new Error(`${method} ${pattern} answered ${exchange.status}: ${exchange.text}`);
    return this.#read(body.nowMs);
  }

  #read(nowMs: number): number {
    this.#latest = { nowMs, readAt: Date.now() };
    return nowMs;
  }

  async advance(ms: number): Promise<number> {
    const now = await this.#post({ advanceMs: ms });
    this.#onAdvance(ms);
    return now;
  }

  /** Freezing keeps boundaries exact: time moves only when a check moves it. */
  freeze(): Promise<number> {
    return this.#post({ frozen: true });
  }

  /** Lets time run again, as it did before a run froze it. */
  unfreeze(): Promise<number> {
    return this.#post({ frozen: false });
  }

  async now(): Promise<number> {
    const exchange = await this.#target.send({ method: CONTROL_ROUTES.clock.method, path: CONTROL_ROUTES.clock.pattern });
    return this.#read((exchange.body as { nowMs: number }).nowMs);
  }

  /**
   * A time at or after the target's now, without asking: the latest reading and the time this machine counted since.
   * The target's clock runs no faster than this machine's, and only the run moves it, through here (a move is a reading).
   */
  notBeforeNow(): number {
    const latest = this.#latest;
    if (latest === undefined) throw new Error("the target's clock was never read: read it (notAfterNow) before asking how late it may be");
    return latest.nowMs + (Date.now() - latest.readAt);
  }

  /**
   * A time at or before the target's now: the latest reading where it was taken a moment ago, else a new one.
   * A run moves the clock only forward, so that the reading after one request stands for the time the next is
   * sent: a request sent between two readings is known to within them, with one reading a request.
   */
  notAfterNow(): Promise<number> {
    const latest = this.#latest;
    return latest !== undefined && Date.now() - latest.readAt <= RECENT_READING_MS ? Promise.resolve(latest.nowMs) : this.now();
  }
}
