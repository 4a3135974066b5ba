import { RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { Identity, IdentityPool } from '../target/identities.js';
import { clockTime, notice, sleep } from '../target/pacing.js';

/** Past the end of every window a counted request opened or joined. */
const QUIET_MARGIN_MS = 2_000;

/** Shorter waits go unannounced: a progress line would say more about them than they cost. */
export const NOTICE_AFTER_MS = 2_000;

/** Where a real-time session's client addresses go: some sign players in ahead, the rest send the sequences. */
export interface AddressPlan {
  /** A new address for every use (addresses sent in a header), or the fixed ones a sequence may take. */
  sequences: readonly Identity[] | 'unlimited';
  /** Addresses set apart for sign-ins: none when there are too few to spare one. */
  signIns: readonly Identity[] | 'unlimited';
}

/**
 * With source addresses, one in four (at least one) signs players in, once at least `perSequence` remain for the
 * sequences: an address signs in 2 players a minute (2 auth requests each, of 5), and a sequence needs 2 players
 * and holds 3 addresses for a minute after its last request, so both run out at about the same pace.
 */
export function planAddresses(identities: IdentityPool, perSequence: number): AddressPlan {
  if (identities.distinct === Number.POSITIVE_INFINITY) return { sequences: 'unlimited', signIns: 'unlimited' };
  const all = Array.from({ length: identities.distinct }, () => identities.fresh());
  const signIns = all.length > perSequence ? Math.max(1, Math.round(all.length / 4)) : 0;
  return { sequences: all.slice(signIns), signIns: all.slice(0, signIns) };
}

/**
 * Which client addresses and players of a real-time session still have a rate-limit window open, and until
 * when: a sequence starts on ones whose windows have all ended, so the model's empty buckets are the target's.
 * A new player is quiet at once; an address is not known to be before a window has passed since the session
 * started (its probe, an earlier run or another client may have sent from it).
 */
export class QuietTracker {
  readonly #busyUntil = new Map<string, number>();
  readonly #identities: IdentityPool;
  readonly #plan: AddressPlan;
  readonly #addressesKnownQuietAt = Date.now() + RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS;

  constructor(identities: IdentityPool, plan: AddressPlan) {
    this.#identities = identities;
    this.#plan = plan;
  }

  /** A counted request was sent now by this address or player (a token): its bucket's window ends within a minute. */
  counted(key: string): void {
    this.#busyUntil.set(key, Date.now() + RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS);
  }

  /** Whether any counted request was sent by this address or player. */
  used(key: string): boolean {
    return this.#busyUntil.has(key);
  }

  #quietAt(key: string): number {
    return this.#busyUntil.get(key) ?? 0;
  }

  #addressQuietAt(identity: Identity): number {
    return Math.max(this.#addressesKnownQuietAt, this.#quietAt(identity.label));
  }

  /** The `count` sequence addresses whose windows end first. */
  addresses(count: number): Identity[] {
    const { sequences } = this.#plan;
    if (sequences === 'unlimited') return Array.from({ length: count }, () => this.#identities.fresh());
    return [...sequences].sort((a, b) => this.#addressQuietAt(a) - this.#addressQuietAt(b)).slice(0, count);
  }

  /** Waits until the windows of these addresses and players have ended, saying so when that takes a while. */
  async waitForQuiet(sequence: number, identities: readonly Identity[], playerTokens: readonly string[], signal: AbortSignal): Promise<void> {
    const quietAt = Math.max(0, ...identities.map((identity) => this.#addressQuietAt(identity)), ...playerTokens.map((token) => this.#quietAt(token)));
    const waitMs = quietAt - Date.now();
    if (waitMs <= 0) return;
    if (waitMs > NOTICE_AFTER_MS)
      notice(`sequence ${sequence}: waiting ${Math.ceil(waitMs / 1000)} s, until ${clockTime(quietAt)}, for the rate-limit windows of ${this.#why(quietAt)}`);
    await sleep(waitMs, signal);
  }

  #why(quietAt: number): string {
    if (quietAt === this.#addressesKnownQuietAt) return 'requests sent from these addresses before this run (its probe, an earlier run, another client) to end';
    const pool = this.#plan.sequences === 'unlimited' ? '' : `: all ${this.#plan.sequences.length} client addresses for sequences are in use`;
    return `earlier requests to end${pool}`;
  }
}
