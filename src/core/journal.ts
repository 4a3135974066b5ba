import type { JournalEntry } from './journal-entry.js';
import { JournalRing } from './journal-ring.js';

export type { JournalEntry } from './journal-entry.js';

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

/** An entry as the control API's journal shows it, with its time as ISO 8601. */
export function journalView({ atMs, ...entry }: JournalEntry) {
  return { at: new Date(atMs).toISOString(), ...entry };
}

/** The last N requests, for the control API's journal listing, and each new one as it comes, for its event stream. */
export class Journal extends JournalRing {
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
}
