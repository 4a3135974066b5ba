import type { RecentPage } from './recent-items.js';
import type { JournalEntry } from './journal-entry.js';

/** Its fields into `to`, one by one: no new object for a kept entry. */
function copyEntry(from: JournalEntry, to: JournalEntry): JournalEntry {
  to.atMs = from.atMs;
  to.method = from.method;
  to.path = from.path;
  to.status = from.status;
  to.category = from.category;
  to.ip = from.ip;
  to.origin = from.origin;
  to.route = from.route;
  to.unknownFields = from.unknownFields;
  to.playerId = from.playerId;
  to.fault = from.fault;
  return to;
}

const copied = (entry: JournalEntry): JournalEntry => ({ ...entry });

/**
 * The last N journal entries in a ring of entry records made once and written over. An object kept per request
 * would outlive the young generation's collections; V8 then allocates every later entry straight in the old
 * generation, which fills with dead entries that only a full collection frees. Each entry has a sequence number
 * (its rank among all entries ever added), which pages resume from; entries are handed out as copies.
 */
export class JournalRing {
  readonly #capacity: number;
  readonly #slots: JournalEntry[] = [];
  #added = 0;
  /** The sequence number of the oldest entry held since the last clear. */
  #firstKept = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(entry: JournalEntry): void {
    if (this.#capacity === 0) return;
    const index = this.#added % this.#capacity;
    if (index === this.#slots.length) this.#slots.push(copied(entry));
    else copyEntry(entry, this.#slots[index]!);
    this.#added++;
  }

  /** Newest first, at most `limit`. */
  newest(limit = this.#capacity): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (let sequence = this.#added - 1; sequence >= this.#oldest() && entries.length < limit; sequence--) entries.push(this.#at(sequence));
    return entries;
  }

  /**
   * Newest first from sequence number `cursor` down (the newest without one): at most `limit` entries that
   * `accept` takes, after inspecting at most `budget`.
   */
  page(cursor: number | undefined, limit: number, budget: number, accept: (entry: JournalEntry) => boolean): RecentPage<JournalEntry> {
    const oldest = this.#oldest();
    const entries: JournalEntry[] = [];
    let sequence = Math.min(cursor ?? this.#added - 1, this.#added - 1);
    for (const stop = sequence - budget; sequence >= oldest && sequence > stop && entries.length < limit; sequence--) {
      const entry = this.#slots[sequence % this.#capacity]!;
      if (accept(entry)) entries.push(copied(entry));
    }
    return { items: entries, next: sequence >= oldest ? sequence : undefined };
  }

  /** How many of the entries held `accept` takes. */
  count(accept: (entry: JournalEntry) => boolean): number {
    let count = 0;
    for (let sequence = this.#added - 1; sequence >= this.#oldest(); sequence--) if (accept(this.#slots[sequence % this.#capacity]!)) count++;
    return count;
  }

  clear(): void {
    this.#firstKept = this.#added;
  }

  #oldest(): number {
    return Math.max(this.#firstKept, this.#added - this.#capacity);
  }

  #at(sequence: number): JournalEntry {
    return copied(this.#slots[sequence % this.#capacity]!);
  }
}
