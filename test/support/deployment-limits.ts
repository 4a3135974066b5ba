/**
 * The rate limits and action points of the deployment-like server (deployment-server.ts), written from the
 * spec's Limits section, not from the mock: fixed windows opened by each key's first request, Reset sent as
 * epoch milliseconds and Retry-After in whole seconds (choices the spec leaves open).
 */

export type Bucket = 'auth' | 'gameplay' | 'read' | 'public';

const WINDOW_MS = 60_000;
export const BUCKET_SIZE: Record<Bucket, number> = { auth: 5, gameplay: 60, read: 60, public: 60 };

interface Window {
  endsAt: number;
  used: number;
}

/** What counting one request gave: the headers to send, and whether the bucket was already spent. */
export interface Counted {
  headers: Record<string, string>;
  limited: boolean;
}

export class DeploymentLimits {
  readonly #windows = new Map<string, Window>();

  /** Counts a request of `key` in `bucket` at `now`; `stuck` sends a Remaining that never falls (a planted departure). */
  count(bucket: Bucket, key: string, now: number, stuck = false): Counted {
    const id = `${bucket} ${key}`;
    let window = this.#windows.get(id);
    if (window === undefined || window.endsAt <= now) {
      window = { endsAt: now + WINDOW_MS, used: 0 };
      this.#windows.set(id, window);
    }
    const size = BUCKET_SIZE[bucket];
    const limited = window.used >= size;
    if (!limited) window.used++;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(size),
      'X-RateLimit-Remaining': String(stuck ? size - 1 : size - window.used),
      'X-RateLimit-Reset': String(window.endsAt),
    };
    if (limited) headers['Retry-After'] = String(Math.ceil((window.endsAt - now) / 1000));
    return { headers, limited };
  }
}

const MAX_POINTS = 60;
const REFILL_MS = 60_000;

/** A player's action points: 60 at most, one back a minute; NextRefill in minutes, as the public deployment sends it. */
export class ActionPoints {
  #points = MAX_POINTS;
  #refilledAt: number;

  constructor(now: number) {
    this.#refilledAt = now;
  }

  #refill(now: number): void {
    const gained = Math.floor((now - this.#refilledAt) / REFILL_MS);
    if (gained <= 0) return;
    this.#points = Math.min(MAX_POINTS, this.#points + gained);
    this.#refilledAt += gained * REFILL_MS;
  }

  /** Spends `cost` if the player has it; the headers say what is left either way. */
  spend(cost: number, now: number): { spent: boolean; headers: Record<string, string> } {
    this.#refill(now);
    const spent = this.#points >= cost;
    if (spent) this.#points -= cost;
    const headers: Record<string, string> = { 'X-ActionPoints-Remaining': String(this.#points) };
    if (this.#points === 0) headers['X-ActionPoints-NextRefill'] = '1';
    return { spent, headers };
  }
}
