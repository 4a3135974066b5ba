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

/** An auth request refused though its client's own budget had room, and how many of the minute it had sent. */
export interface SharedAuthBucket {
  client: string;
  sent: number;
  exchange: Exchange;
}

/**
 * One scheduler for every request of a run: it keeps each client within the auth budget (5 a minute),
 * and waits out an unexpected 429, moving the target's clock instead of waiting when it can.
 */
export class Pacer {
  readonly #authSends = new Map<string, number[]>();
  readonly #clock: ClockControl | undefined;
  readonly #maxWait: number;
  #sent = 0;
  readonly #startedAt = Date.now();
  /** The first auth request refused 429 while its client had room in its own budget: buckets the plan took apart are one. */
  #sharedAuthBucket: SharedAuthBucket | undefined;
  /** Ends a wait at once when the run is stopped (an interrupt). */
  stopSignal: AbortSignal | undefined;

  constructor(clock: ClockControl | undefined, maxWait: number) {
    this.#clock = clock;
    this.#maxWait = maxWait;
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

  /**
   * A registration of an address new to the run, from a client with room in its own 5 auth requests of the minute,
   * answered 429: in real time, proof that the server counts several client addresses in one bucket (by network,
   * say). The plan assumed one bucket each, so waiting would not end: from now on an auth 429 is handed back at once,
   * for its check to judge, and RL-AUTH-IP reports this one. Nothing is concluded with clock control (the budgets
   * here are not the target's minute), nor in the run's first minute (an earlier run's window may still be open).
   */
  noteRefusedWithRoom(identity: Identity, exchange: Exchange): void {
    if (this.#clock !== undefined || this.#sharedAuthBucket !== undefined) return;
    // In the run's first minute a window another run left open may explain the refusal.
    if (Date.now() - this.#startedAt < RATE_LIMIT_WINDOW_MS + MARGIN_MS) return;
    const sent = this.#recentAuth(identity, Date.now()).length;
    if (sent > RATE_LIMITS.auth.limit) return;
    this.#sharedAuthBucket = { client: identity.label, sent, exchange };
    notice(
      `${identity.label}'s registration answered 429 after ${sent} of its ${RATE_LIMITS.auth.limit} auth requests of the minute: the target shares auth buckets between client addresses; auth 429s are no longer waited out (RL-AUTH-IP)`,
    );
  }

  get sharedAuthBucket(): SharedAuthBucket | undefined {
    return this.#sharedAuthBucket;
  }

  /** After an unexpected 429: whether to send again (after the window has passed). `auth`: the request was a register or verify-email. */
  async after429(exchange: Exchange, attempt: number, auth = false): Promise<boolean> {
    if (attempt >= MAX_RETRIES || (auth && this.#sharedAuthBucket !== undefined)) return false;
    const seconds = retryAfterSeconds(exchange);
    if (this.#clock === undefined && seconds > this.#maxWait) {
      notice(`${exchange.method} ${exchange.url} answered 429 with Retry-After ${seconds}: more than --max-wait ${this.#maxWait} s, not waiting`);
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
