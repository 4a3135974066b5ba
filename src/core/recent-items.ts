/** A page of a listing, newest first, and the cursor of the next one (undefined after the last). */
export interface RecentPage<T> {
  items: T[];
  next: number | undefined;
}

/**
 * The last N items, oldest dropped first: bounded whatever the traffic. Trimming happens once the
 * array holds twice the capacity, so that adding stays amortised O(1). Each item has a sequence number
 * (its rank among all items ever added), which pages resume from.
 */
export class RecentItems<T> {
  readonly #capacity: number;
  #items: T[] = [];
  #added = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(item: T): void {
    if (this.#capacity === 0) return;
    if (this.#items.length >= this.#capacity * 2) this.#items = this.#items.slice(-this.#capacity);
    this.#items.push(item);
    this.#added++;
  }

  /** Newest first, at most `limit`. */
  newest(limit = this.#capacity): T[] {
    return this.#items.slice(-Math.min(limit, this.#capacity)).reverse();
  }

  /**
   * Newest first from sequence number `cursor` down (the newest without one): at most `limit` items that
   * `accept` takes, after inspecting at most `budget`.
   */
  page(cursor: number | undefined, limit: number, budget: number, accept: (item: T) => boolean): RecentPage<T> {
    const firstHeld = this.#added - this.#items.length;
    const oldest = Math.max(firstHeld, this.#added - this.#capacity);
    const items: T[] = [];
    let sequence = Math.min(cursor ?? this.#added - 1, this.#added - 1);
    for (const stop = sequence - budget; sequence >= oldest && sequence > stop && items.length < limit; sequence--) {
      const item = this.#items[sequence - firstHeld]!;
      if (accept(item)) items.push(item);
    }
    return { items, next: sequence >= oldest ? sequence : undefined };
  }

  /** Removes every held item `doomed` takes; answers how many. Pages resume from the newer items as before. */
  removeWhere(doomed: (item: T) => boolean): number {
    const kept = this.#items.filter((item) => !doomed(item));
    const removed = this.#items.length - kept.length;
    this.#items = kept;
    return removed;
  }

  clear(): void {
    this.#items = [];
  }
}
