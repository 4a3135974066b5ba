import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { ClockControl } from './clock-control.js';
import { integerHeader, type Exchange } from '../common/exchange.js';
import type { Identity } from './identities.js';

const MARGIN_MS = 1_000;
const MAX_RETRIES = 3;

/** `HH:MM:SS` (UTC) of a moment, as progress lines show it. */
export const clockTime = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

export function notice(message: string): void {
  process.stderr.write(`[conformance ${clockTime(Date.now())}] ${message}\n`);
}

/** Waits `ms`; rejects with the signal's reason once it aborts (a run bound reached). On the global timers, which tests can fake. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After in seconds; a value too large to be seconds is taken as milliseconds (the spec leaves the unit open). */
export function retryAfterSeconds(exchange: Exchange): number {
  const value = integerHeader(exchange, 'retry-after') ?? RATE_LIMIT_WINDOW_MS / 1000;
  return value > 3_600 ? Math.ceil(value / 1000) : Math.max(value, 1);
}

/**
 * One scheduler for every request of a run: it keeps each client within the auth budget (5 a minute),
 * and waits out an unexpected 429, moving the target's clock instead of waiting when it can.
 */
export class Pacer {
  readonly #authSends = new Map<string, number[]>();
  readonly #clock: ClockControl | undefined;
  readonly #maxWaitSeconds: number;
  #sent = 0;
  /** Ends a wait at once when the run is stopped (an interrupt). */
  stopSignal: AbortSignal | undefined;

  constructor(clock: ClockControl | undefined, maxWaitSeconds: number) {
    this.#clock = clock;
    this.#maxWaitSeconds = maxWaitSeconds;
  }

  /** The target's clock moved: a whole window gone empties every budget. */
  clockMoved(ms: number): void {
    if (ms >= RATE_LIMIT_WINDOW_MS) this.#authSends.clear();
  }

  /** The auth requests of this client that still count in a window open at `now`, oldest first. */
  #recentAuth(identity: Identity, now: number): number[] {
    return (this.#authSends.get(identity.label) ?? []).filter((at) => now - at < RATE_LIMIT_WINDOW_MS + MARGIN_MS);
  }

  /** The earliest moment (this machine's clock) at which this client can send `count` auth requests without a wait. */
  authRoomAt(identity: Identity, count: number, now = Date.now()): number {
    const recent = this.#recentAuth(identity, now);
    const mustLeave = recent.length + count - RATE_LIMITS.auth.limit;
    return mustLeave <= 0 ? now : recent[mustLeave - 1]! + RATE_LIMIT_WINDOW_MS + MARGIN_MS;
  }

  /** An auth request sent without waiting for room (a check that wants the 429): later ones are paced around it. */
  recordAuth(identity: Identity): void {
    this.#authSends.set(identity.label, [...this.#recentAuth(identity, Date.now()), Date.now()]);
    this.#sent++;
  }

  /** Auth requests the run has sent so far, for the plan's account at the end. */
  get authRequestsSent(): number {
    return this.#sent;
  }

  /** Before an auth request: make room in this client's budget. */
  async beforeAuth(identity: Identity): Promise<void> {
    const now = Date.now();
    const recent = this.#recentAuth(identity, now);
    if (recent.length >= RATE_LIMITS.auth.limit) {
      await this.#pass(recent[0]! + RATE_LIMIT_WINDOW_MS + MARGIN_MS - now, `the auth budget of ${identity.label} (5 a minute) is spent`);
      recent.length = 0;
    }
    recent.push(Date.now());
    this.#authSends.set(identity.label, recent);
    this.#sent++;
  }

  /** After an unexpected 429: whether to send again (after the window has passed). */
  async after429(exchange: Exchange, attempt: number): Promise<boolean> {
    if (attempt >= MAX_RETRIES) return false;
    const seconds = retryAfterSeconds(exchange);
    if (this.#clock === undefined && seconds > this.#maxWaitSeconds) {
      notice(`${exchange.method} ${exchange.url} answered 429 with Retry-After ${seconds}: more than --max-wait ${this.#maxWaitSeconds} s, not waiting`);
      return false;
    }
    await this.#pass(seconds * 1000 + MARGIN_MS, `${exchange.method} ${new URL(exchange.url).pathname} answered 429`);
    return true;
  }

  /** Lets `ms` of the target's time pass: by moving its clock when it has one, else by waiting. */
  async #pass(ms: number, why: string): Promise<void> {
    if (this.#clock !== undefined) {
      await this.#clock.advance(Math.max(ms, RATE_LIMIT_WINDOW_MS));
      return;
    }
    notice(`${why}: waiting ${Math.ceil(ms / 1000)} s (until ${clockTime(Date.now() + ms)})`);
    await sleep(ms, this.stopSignal);
  }
}
