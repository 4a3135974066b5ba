/** A bucket as the rules read it: requests counted in its window, and when that window ends. */
export interface BucketState {
  count: number;
  windowEnd: number;
}

/** One request offered to a bucket: whether it was counted (false once the limit is reached), and the bucket after it. */
export interface BucketHit extends BucketState {
  counted: boolean;
}

/** No room for a new key: every tracked bucket is in a live window, and none ends before `retryAt`. */
export interface BucketTableFull {
  full: true;
  retryAt: number;
}

/** A bucket in a listing, with what it counts. */
export interface ListedBucket extends BucketState {
  category: string;
  key: string;
}

/** A page of a listing, and the cursor of the next one (undefined after the last). */
export interface BucketPage {
  entries: ListedBucket[];
  next: number | undefined;
}

/** What a store of rate-limit buckets offers the rules and the control API, whatever keeps them. */
export interface BucketStore {
  readonly size: number;
  readonly capacity: number;
  get(category: string, key: string, now: number): BucketState | undefined;
  /** Counts one request unless `limit` are counted, opening a window ending at `windowEnd` when none is live. */
  hit(category: string, key: string, now: number, windowEnd: number, limit: number): BucketHit | BucketTableFull;
  /** Sets the count of the key's live window (opening one ending at `windowEnd` when none is). */
  fill(category: string, key: string, now: number, windowEnd: number, count: number): BucketState | BucketTableFull;
  delete(category: string, key: string): boolean;
  clear(): void;
  /** Live buckets (of one category, or all) from `cursor` on: at most `limit`, after inspecting at most `budget` records. */
  scan(now: number, cursor: number, limit: number, budget: number, category?: string): BucketPage;
}

const INITIAL_SLOTS = 1_024;

function grown<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
/** Records each new key inspects for an ended window: sweeping in small steps, no timers. */
const SWEEP_BATCH = 4;

/**
 * Buckets as fixed-size records (category, window end, count) in typed arrays, found through one Map of
 * slot numbers per category, keyed by the client address or player id alone: about 80 bytes a bucket, so
 * that a million clients fit in a window. Slots of ended windows are swept
 * and reused; a live window is never dropped to make room. When all `capacity` slots hold live windows, a
 * new key is refused until the earliest of them ends: the caller answers 503, and no spent bucket is
 * given back early.
 */
export class BucketTable implements BucketStore {
  readonly capacity: number;
  readonly #categories: readonly string[];
  readonly #slots: ReadonlyMap<string, Map<string, number>>;
  #size = 0;
  #keys: (string | undefined)[] = [];
  #categoryIndexes = new Uint8Array(INITIAL_SLOTS);
  #windowEnds = new Float64Array(INITIAL_SLOTS);
  #counts = new Uint8Array(INITIAL_SLOTS);
  #free: number[] = [];
  #sweepCursor = 0;
  /** After a sweep of every slot found all windows live: none ends before this time. */
  #earliestWindowEnd = Number.NEGATIVE_INFINITY;

  constructor(capacity: number, categories: readonly string[]) {
    this.capacity = capacity;
    this.#categories = categories;
    this.#slots = new Map(categories.map((category) => [category, new Map()]));
  }

  get size(): number {
    return this.#size;
  }

  get(category: string, key: string, now: number): BucketState | undefined {
    const slot = this.#slotsOf(category).get(key);
    return slot === undefined || now >= this.#windowEnds[slot]! ? undefined : this.#state(slot);
  }

  hit(category: string, key: string, now: number, windowEnd: number, limit: number): BucketHit | BucketTableFull {
    const slot = this.#liveSlot(category, key, now, windowEnd);
    if (slot === undefined) return { full: true, retryAt: this.#earliestWindowEnd };
    const counted = this.#counts[slot]! < limit;
    if (counted) this.#counts[slot]!++;
    return { counted, count: this.#counts[slot]!, windowEnd: this.#windowEnds[slot]! };
  }

  fill(category: string, key: string, now: number, windowEnd: number, count: number): BucketState | BucketTableFull {
    const slot = this.#liveSlot(category, key, now, windowEnd);
    if (slot === undefined) return { full: true, retryAt: this.#earliestWindowEnd };
    this.#counts[slot] = count;
    return this.#state(slot);
  }

  delete(category: string, key: string): boolean {
    const slot = this.#slotsOf(category).get(key);
    if (slot === undefined) return false;
    this.#release(slot);
    return true;
  }

  clear(): void {
    for (const slots of this.#slots.values()) slots.clear();
    this.#size = 0;
    this.#keys = [];
    this.#categoryIndexes = new Uint8Array(INITIAL_SLOTS);
    this.#windowEnds = new Float64Array(INITIAL_SLOTS);
    this.#counts = new Uint8Array(INITIAL_SLOTS);
    this.#free = [];
    this.#sweepCursor = 0;
    this.#earliestWindowEnd = Number.NEGATIVE_INFINITY;
  }

  scan(now: number, cursor: number, limit: number, budget: number, category?: string): BucketPage {
    const wanted = category === undefined ? -1 : this.#categories.indexOf(category);
    const entries: ListedBucket[] = [];
    const end = Math.min(this.#keys.length, cursor + budget);
    let slot = cursor;
    for (; slot < end && entries.length < limit; slot++) {
      const key = this.#keys[slot];
      if (key === undefined || now >= this.#windowEnds[slot]! || (wanted !== -1 && this.#categoryIndexes[slot] !== wanted)) continue;
      entries.push({ category: this.#categories[this.#categoryIndexes[slot]!]!, key, ...this.#state(slot) });
    }
    return { entries, next: slot < this.#keys.length ? slot : undefined };
  }

  #slotsOf(category: string): Map<string, number> {
    const slots = this.#slots.get(category);
    if (slots === undefined) throw new Error(`unknown rate-limit category ${category}`);
    return slots;
  }

  #state(slot: number): BucketState {
    return { count: this.#counts[slot]!, windowEnd: this.#windowEnds[slot]! };
  }

  /** The key's slot with a live window (a new one when its last ended), or undefined when there is no room. */
  #liveSlot(category: string, key: string, now: number, windowEnd: number): number | undefined {
    const slots = this.#slotsOf(category);
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = this.#allocate(now);
      if (slot === undefined) return undefined;
      this.#keys[slot] = key;
      this.#categoryIndexes[slot] = this.#categories.indexOf(category);
      slots.set(key, slot);
      this.#size++;
    } else if (now < this.#windowEnds[slot]!) {
      return slot;
    }
    this.#windowEnds[slot] = windowEnd;
    this.#counts[slot] = 0;
    return slot;
  }

  #allocate(now: number): number | undefined {
    this.#sweep(now, SWEEP_BATCH);
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    if (this.#keys.length < this.capacity) return this.#append();
    // Full: only ended windows may make room, and none ends before the earliest one found by the last full sweep.
    if (now < this.#earliestWindowEnd) return undefined;
    this.#sweep(now, this.#keys.length);
    return this.#free.pop();
  }

  #append(): number {
    const slot = this.#keys.length;
    if (slot === this.#windowEnds.length) {
      const size = Math.min(this.capacity, slot * 2);
      this.#categoryIndexes = grown(this.#categoryIndexes, new Uint8Array(size));
      this.#windowEnds = grown(this.#windowEnds, new Float64Array(size));
      this.#counts = grown(this.#counts, new Uint8Array(size));
    }
    this.#keys.push(undefined);
    return slot;
  }

  /** Frees the ended windows among the next `count` slots; a sweep of every slot also notes the earliest live end. */
  #sweep(now: number, count: number): void {
    const total = this.#keys.length;
    if (total === 0) return;
    const whole = count >= total;
    let earliest = Number.POSITIVE_INFINITY;
    for (let inspected = 0; inspected < Math.min(count, total); inspected++) {
      const slot = this.#sweepCursor;
      this.#sweepCursor = slot + 1 === total ? 0 : slot + 1;
      if (this.#keys[slot] === undefined) continue;
      const windowEnd = this.#windowEnds[slot]!;
      if (now >= windowEnd) this.#release(slot);
      else if (windowEnd < earliest) earliest = windowEnd;
    }
    if (whole) this.#earliestWindowEnd = earliest;
  }

  #release(slot: number): void {
    this.#slots.get(this.#categories[this.#categoryIndexes[slot]!]!)!.delete(this.#keys[slot]!);
    this.#keys[slot] = undefined;
    this.#size--;
    this.#free.push(slot);
  }
}
