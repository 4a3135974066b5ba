interface Entry<V> {
  value: V;
  expiresAt: number;
}

/** How many of the oldest entries each write inspects for expiry: sweeping in small batches, no timers. */
const SWEEP_BATCH = 4;

/**
 * A Map whose entries expire at a given time: expiry is checked on every read, and each write sweeps
 * a few of the oldest entries. With `maxEntries`, the oldest entry is evicted to admit a new key, so
 * memory stays bounded whatever the traffic. With `keepEndedMs`, an ended entry is hidden but kept that
 * long before a sweep removes it, so that a clock moved ahead and set back again finds it.
 */
export class ExpiringMap<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
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
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (now < entry.expiresAt) return entry.value;
    if (now >= entry.expiresAt + this.#keepEndedMs) this.#entries.delete(key);
    return undefined;
  }

  /** Stores a value; a replaced key moves to the young end, so the oldest entries stay first. */
  set(key: K, value: V, expiresAt: number, now: number): void {
    this.#entries.delete(key);
    this.#sweep(now);
    if (this.#entries.size >= this.#maxEntries) this.#evictOldest();
    this.#entries.set(key, { value, expiresAt });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Deletes every entry `doomed` takes, ended ones kept hidden included; answers how many. */
  deleteWhere(doomed: (value: V, key: K) => boolean): number {
    const keys = [...this.#entries].flatMap(([key, entry]) => (doomed(entry.value, key) ? [key] : []));
    for (const key of keys) this.delete(key);
    return keys.length;
  }

  *values(now: number): IterableIterator<V> {
    for (const [, value] of this.entries(now)) yield value;
  }

  *entries(now: number): IterableIterator<[K, V]> {
    for (const [key, entry] of this.#entries) {
      if (now < entry.expiresAt) yield [key, entry.value];
    }
  }

  #sweep(now: number): void {
    let inspected = 0;
    for (const [key, entry] of this.#entries) {
      if (inspected++ === SWEEP_BATCH) return;
      if (now >= entry.expiresAt + this.#keepEndedMs) this.#entries.delete(key);
    }
  }

  #evictOldest(): void {
    const oldest = this.#entries.keys().next();
    if (oldest.done !== true) this.#entries.delete(oldest.value);
  }
}
