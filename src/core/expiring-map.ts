/** A record that says when it ends. */
export interface Expiring {
  readonly expiresAt: number;
}

/** How many of the oldest entries each write inspects for expiry: sweeping in small batches, no timers. */
const SWEEP_BATCH = 4;

/**
 * A Map whose values expire at the time they carry: expiry is checked on every read, and each write sweeps
 * a few of the oldest entries. With `maxEntries`, the oldest entry is evicted to admit a new key, so
 * memory stays bounded whatever the traffic. With `keepEndedMs`, an ended entry is hidden but kept that
 * long before a sweep removes it, so that a clock moved ahead and set back again finds it. The values are kept
 * as they are, with no wrapper: a read on the hot path (a bearer token's) loads one record less.
 */
export class ExpiringMap<K, V extends Expiring> {
  readonly #entries = new Map<K, V>();
  readonly #maxEntries: number;
  readonly #keepEndedMs: number;

  constructor(maxEntries = Number.POSITIVE_INFINITY, keepEndedMs = 0) {
    this.#maxEntries = maxEntries;
    this.#keepEndedMs = keepEndedMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K, now: number): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    if (now < value.expiresAt) return value;
    if (now >= value.expiresAt + this.#keepEndedMs) this.#entries.delete(key);
    return undefined;
  }

  /** Stores a value; a replaced key moves to the young end, so the oldest entries stay first. */
  set(key: K, value: V, now: number): void {
    this.#entries.delete(key);
    this.#sweep(now);
    if (this.#entries.size >= this.#maxEntries) this.#evictOldest();
    this.#entries.set(key, value);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Deletes every entry `doomed` takes, ended ones kept hidden included; answers how many. */
  deleteWhere(doomed: (value: V, key: K) => boolean): number {
    const keys = [...this.#entries].flatMap(([key, value]) => (doomed(value, key) ? [key] : []));
    for (const key of keys) this.delete(key);
    return keys.length;
  }

  *values(now: number): IterableIterator<V> {
    for (const [, value] of this.entries(now)) yield value;
  }

  *entries(now: number): IterableIterator<[K, V]> {
    for (const [key, value] of this.#entries) {
      if (now < value.expiresAt) yield [key, value];
    }
  }

  #sweep(now: number): void {
    let inspected = 0;
    for (const [key, value] of this.#entries) {
      if (inspected++ === SWEEP_BATCH) return;
      if (now >= value.expiresAt + this.#keepEndedMs) this.#entries.delete(key);
    }
  }

  #evictOldest(): void {
    const oldest = this.#entries.keys().next();
    if (oldest.done !== true) this.#entries.delete(oldest.value);
  }
}
