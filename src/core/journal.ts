import type { RateLimitCategory } from '../spec/limits.js';
import { RecentItems } from './recent-items.js';

/** One answered request, as a client developer reads it back from GET /__mock/journal. */
export interface JournalEntry {
  /** Epoch milliseconds on the service's clock; formatted only when read, off the hot path. */
  atMs: number;
  method: string;
  path: string;
  status: number;
  /** The rate-limit category: the matched route's, or public for an unknown path or method (404, 405, counted there); null for preflights. */
  category: RateLimitCategory | null;
  ip: string;
  origin: string | null;
  /** The signed-in player, when the route needed one and the token was valid. */
  playerId: string | null;
  /** The injected faults the request met (`status 503`, `latency 120 ms`, `reset`, …); null when none. */
  fault: string[] | null;
}

/** An entry as GET /__mock/journal shows it, with its time as ISO 8601. */
export function journalView({ atMs, ...entry }: JournalEntry) {
  return { at: new Date(atMs).toISOString(), ...entry };
}

/** The last N requests, for GET /__mock/journal. */
export class Journal extends RecentItems<JournalEntry> {
  /** Newest first, each with its time as ISO 8601. */
  latest(limit?: number) {
    return this.newest(limit).map(journalView);
  }

  /** How many of the entries held `accept` takes. */
  count(accept: (entry: JournalEntry) => boolean): number {
    let count = 0;
    for (const entry of this.newest()) if (accept(entry)) count++;
    return count;
  }
}
