import type { RateLimitCategory } from '../spec/limits.js';
import { RecentItems } from './recent-items.js';

/** The longest path kept, in UTF-8 bytes: the journal holds hundreds of entries, and a path is kept as sent. */
export const MAX_JOURNAL_PATH_BYTES = 1024;
const TRUNCATED = '…';
const utf8 = new TextEncoder();

/** The path as sent, cut (on a character boundary) to MAX_JOURNAL_PATH_BYTES with a mark where it was cut. */
export function journalPath(path: string): string {
  // A UTF-16 code unit takes at most 3 bytes in UTF-8: a path of at most a third of the bound in code units fits.
  if (path.length * 3 <= MAX_JOURNAL_PATH_BYTES) return path;
  if (utf8.encode(path).byteLength <= MAX_JOURNAL_PATH_BYTES) return path;
  const room = new Uint8Array(MAX_JOURNAL_PATH_BYTES - utf8.encode(TRUNCATED).byteLength);
  const { read } = utf8.encodeInto(path, room);
  return `${path.slice(0, read)}${TRUNCATED}`;
}

/** One answered request, as a client developer reads it back from the control API's journal. */
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
  /** The id of the route that answered: a spec route's (getPlayer), or `METHOD /path` of a configured one; null when none did. */
  route: string | null;
  /** Fields of a spec route's JSON body that the spec does not name (a misnamed field shows here); null when none. */
  unknownFields: string[] | null;
  /** The signed-in player, when the route needed one and the token was valid. */
  playerId: string | null;
  /** The injected faults the request met (`status 503`, `latency 120 ms`, `reset`, …); null when none. */
  fault: string[] | null;
}

/** An entry as the control API's journal shows it, with its time as ISO 8601. */
export function journalView({ atMs, ...entry }: JournalEntry) {
  return { at: new Date(atMs).toISOString(), ...entry };
}

/** The last N requests, for the control API's journal listing, and each new one as it comes, for its event stream. */
export class Journal extends RecentItems<JournalEntry> {
  readonly #listeners = new Set<(entry: JournalEntry) => void>();

  override add(entry: JournalEntry): void {
    super.add(entry);
    if (this.#listeners.size > 0) for (const listener of this.#listeners) listener(entry);
  }

  /** Calls `listener` with every entry added from now on, until the returned function is called. */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Listeners subscribed now: open event streams. */
  get subscribers(): number {
    return this.#listeners.size;
  }

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
