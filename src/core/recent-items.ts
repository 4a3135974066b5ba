/**
 * The last N items, oldest dropped first: bounded whatever the traffic. Trimming happens once the
 * array holds twice the capacity, so that adding stays amortised O(1).
 */
export class RecentItems<T> {
  readonly #capacity: number;
  #items: T[] = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(item: T): void {
    if (this.#capacity === 0) return;
    if (this.#items.length >= this.#capacity * 2) this.#items = this.#items.slice(-this.#capacity);
    this.#items.push(item);
  }

  /** Newest first, at most `limit`. */
  newest(limit = this.#capacity): T[] {
    return this.#items.slice(-Math.min(limit, this.#capacity)).reverse();
  }

  clear(): void {
    this.#items = [];
  }
}
