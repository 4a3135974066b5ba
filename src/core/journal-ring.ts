import type { RecentPage } from './recent-items.js';
import type { JournalEntry } from './journal-entry.js';
import { keptRequestBytes } from './journal-request.js';

/** The headers and bodies the journal holds, in all: past it the oldest entries' are let go (their lines stay). */
export const MAX_JOURNAL_REQUEST_BYTES = 8 * 1024 * 1024;
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

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
  to.generalisedFrom = from.generalisedFrom;
  to.requestHeaders = from.requestHeaders;
  to.requestBody = from.requestBody;
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
  /** Bytes of each slot's request, while it holds one. */
  readonly #requestBytes: number[] = [];
  readonly #requestBudget: number;
  #heldRequestBytes = 0;
  /** Entries of a lower sequence number hold no request any more. */
  #requestsLetGoBefore = 0;
  #added = 0;
  /** The sequence number of the oldest entry held since the last clear. */
  #firstKept = 0;

  constructor(capacity: number, requestBudget = MAX_JOURNAL_REQUEST_BYTES) {
    this.#capacity = capacity;
    this.#requestBudget = requestBudget;
  }

  add(entry: JournalEntry): void {
    if (this.#capacity === 0) return;
    const index = this.#added % this.#capacity;
    const bytes = keptRequestBytes(entry);
    if (index === this.#slots.length) {
      this.#slots.push(copied(entry));
      this.#requestBytes.push(bytes);
    } else {
      copyEntry(entry, this.#slots[index]!);
      this.#heldRequestBytes -= this.#requestBytes[index]!;
      this.#requestBytes[index] = bytes;
    }
    this.#heldRequestBytes += bytes;
    this.#added++;
    this.#requestsLetGoBefore = Math.max(this.#requestsLetGoBefore, this.#added - this.#capacity);
    while (this.#heldRequestBytes > this.#requestBudget) this.#letGoRequest(this.#requestsLetGoBefore++);
  }

  /** Lets go of the headers and body of the entry of this sequence number. */
  #letGoRequest(sequence: number): void {
    const index = sequence % this.#capacity;
    const slot = this.#slots[index]!;
    slot.requestHeaders = NO_HEADERS;
    slot.requestBody = null;
    this.#heldRequestBytes -= this.#requestBytes[index]!;
    this.#requestBytes[index] = 0;
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

  /** How many entries it holds. */
  get size(): number {
    return this.#added - this.#oldest();
  }

  /**
   * Takes out the entries `accept` takes; answers how many. Those left keep their order and their requests, under
   * new sequence numbers: a page's cursor from before no longer resumes where it was, as after a clear.
   */
  remove(accept: (entry: JournalEntry) => boolean): number {
    const left: JournalEntry[] = [];
    for (let sequence = this.#oldest(); sequence < this.#added; sequence++) {
      const entry = this.#slots[sequence % this.#capacity]!;
      if (!accept(entry)) left.push(copied(entry));
    }
    const removed = this.size - left.length;
    if (removed === 0) return 0;
    this.clear();
    for (const entry of left) this.add(entry);
    return removed;
  }

  clear(): void {
    this.#firstKept = this.#added;
    while (this.#requestsLetGoBefore < this.#added) this.#letGoRequest(this.#requestsLetGoBefore++);
  }

  #oldest(): number {
    return Math.max(this.#firstKept, this.#added - this.#capacity);
  }

  #at(sequence: number): JournalEntry {
    return copied(this.#slots[sequence % this.#capacity]!);
  }
}
