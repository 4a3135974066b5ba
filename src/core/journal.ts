import type { RateLimitCategory } from '../spec/limits.js';

/** One answered request, as a client developer reads it back from GET /__mock/journal. */
export interface JournalEntry {
  /** Epoch milliseconds on the service's clock; formatted only when read, off the hot path. */
  atMs: number;
  method: string;
  path: string;
  status: number;
  /** The rate-limit category of the matched route; null for unknown paths and preflights. */
  category: RateLimitCategory | null;
  ip: string;
  origin: string | null;
  /** The signed-in player, when the route needed one and the token was valid. */
  playerId: string | null;
}

/** The last N requests, oldest dropped first: bounded whatever the traffic. */
export class Journal {
  readonly #capacity: number;
  #entries: JournalEntry[] = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  record(entry: JournalEntry): void {
    if (this.#capacity === 0) return;
    if (this.#entries.length >= this.#capacity * 2) this.#entries = this.#entries.slice(-this.#capacity);
    this.#entries.push(entry);
  }

  /** Newest first, each with its time as ISO 8601. */
  latest(limit = this.#capacity) {
    return this.#entries
      .slice(-Math.min(limit, this.#capacity))
      .reverse()
      .map(({ atMs, ...entry }) => ({ at: new Date(atMs).toISOString(), ...entry }));
  }

  clear(): void {
    this.#entries = [];
  }
}
