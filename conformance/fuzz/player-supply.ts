import type { Identity } from '../target/identities.js';
import { clockTime, notice, sleep } from '../target/pacing.js';
import type { SignedIn } from '../fixtures/players.js';
import type { Pacer } from '../target/pacing.js';
import { NOTICE_AFTER_MS } from './real-time-pool.js';

/** A sign-in: a register and a verify-email, both from the sign-in address. */
const AUTH_REQUESTS_PER_SIGN_IN = 2;

export interface PlayerSupplyOptions {
  /** Where sign-ins are sent from: a fixed set of addresses whose auth budgets are planned, or a new address each time. */
  addresses: readonly Identity[] | (() => Identity);
  pacer: Pacer;
  signIn: (identity: Identity) => Promise<SignedIn>;
  /** Players kept signed in ahead of the sequences that will need them. */
  ahead: number;
  signal: AbortSignal;
}

/**
 * Fresh players for real-time sequences, signed in ahead, one after another, from addresses set apart for it:
 * each sign-in goes to the address whose auth budget has room for it first, so the scheduler never waits,
 * and a sequence waits for players only when every sign-in address has spent its budget.
 */
export class PlayerSupply {
  readonly #options: PlayerSupplyOptions;
  readonly #ready: SignedIn[] = [];
  #filling: Promise<void> | undefined;
  #failure: Error | undefined;
  /** When the next sign-in can be sent, while every sign-in address's budget is spent. */
  #blockedUntil: number | undefined;
  #wake: (() => void) | undefined;

  constructor(options: PlayerSupplyOptions) {
    this.#options = options;
    this.#fill();
  }

  /** `count` players no request has used; waits (and says why) only when none are ready. */
  async take(count: number, sequence: number): Promise<SignedIn[]> {
    let announced = false;
    while (this.#ready.length < count) {
      if (this.#failure !== undefined) throw this.#failure;
      this.#options.signal.throwIfAborted();
      if (!announced && this.#blockedUntil !== undefined && this.#blockedUntil - Date.now() > NOTICE_AFTER_MS) {
        const until = this.#blockedUntil;
        notice(
          `sequence ${sequence}: waiting ${Math.ceil((until - Date.now()) / 1000)} s, until ${clockTime(until)}, for players: every sign-in address has spent its auth budget (5 a minute)`,
        );
        announced = true;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const taken = this.#ready.splice(0, count);
    this.#fill();
    return taken;
  }

  /** Players a sequence never sent a request as: their buckets are still empty, so the next sequence may have them. */
  giveBack(players: readonly SignedIn[]): void {
    this.#ready.unshift(...players);
  }

  /** Waits for a sign-in in progress, so that the run can close its connections. */
  async close(): Promise<void> {
    await this.#filling;
  }

  #fill(): void {
    this.#filling ??= this.#signInAhead()
      .catch((error: unknown) => {
        if (!this.#options.signal.aborted) this.#failure = error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        this.#filling = undefined;
        this.#wake?.();
      });
  }

  async #signInAhead(): Promise<void> {
    const { ahead, signIn, signal } = this.#options;
    while (this.#ready.length < ahead && !signal.aborted) {
      const { identity, at } = this.#roomiestAddress();
      if (at > Date.now()) {
        this.#blockedUntil = at;
        this.#wake?.();
        await sleep(at - Date.now(), signal);
      }
      this.#blockedUntil = undefined;
      this.#ready.push(await signIn(identity));
      this.#wake?.();
    }
  }

  /** The sign-in address that can send a whole sign-in soonest, and when. */
  #roomiestAddress(): { identity: Identity; at: number } {
    const { addresses, pacer } = this.#options;
    if (typeof addresses === 'function') return { identity: addresses(), at: Date.now() };
    const now = Date.now();
    return addresses
      .map((identity) => ({ identity, at: pacer.authRoomAt(identity, AUTH_REQUESTS_PER_SIGN_IN, now) }))
      .reduce((best, candidate) => (candidate.at < best.at ? candidate : best));
  }
}
