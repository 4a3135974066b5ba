/**
 * The latest items added, oldest first, at most `max` of them and at most `maxBytes` in all (by the size each was
 * added with): what the proxy keeps of a long session stays bounded in count and in bytes. The oldest are let go
 * by moving a start index, and the array is compacted only once half of it is let go: dropping the oldest of an
 * array (`shift`) copies all the others, which at the proxy's 50,000 recorded exchanges costs a quarter of a
 * millisecond per request. Each item's size is kept beside it, not with it: an object per item would outlive the
 * young generation with it, and copying it cost the proxy's garbage collector on every exchange.
 */
export class LatestItems<T> implements Iterable<T> {
  readonly #max: number;
  readonly #maxBytes: number;
  #items: T[] = [];
  #sizes: number[] = [];
  #start = 0;
  #bytes = 0;
  /** How many items were let go to make room. */
  dropped = 0;

  constructor(max: number, maxBytes = Number.POSITIVE_INFINITY) {
    this.#max = max;
    this.#maxBytes = maxBytes;
  }

  add(item: T, bytes = 0): void {
    this.#items.push(item);
    this.#sizes.push(bytes);
    this.#bytes += bytes;
    while (this.length > this.#max || (this.#bytes > this.#maxBytes && this.length > 1)) this.#dropOldest();
  }

  #dropOldest(): void {
    this.#bytes -= this.#sizes[this.#start]!;
    this.#start++;
    this.dropped++;
    if (this.#start * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#start);
      this.#sizes = this.#sizes.slice(this.#start);
      this.#start = 0;
    }
  }

  get length(): number {
    return this.#items.length - this.#start;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let index = this.#start; index < this.#items.length; index++) yield this.#items[index]!;
  }

  toArray(): T[] {
    return [...this];
  }
}
