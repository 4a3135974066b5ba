import type { Redis } from 'iovalkey';
import { BucketTable, type BucketHit, type BucketPage, type BucketState, type BucketStore } from '../core/bucket-table.js';
import { StoreSuspension } from '../core/store-engine.js';
import { BUCKET_GRACE_MS, HIT_BUCKET } from './redis-bucket-script.js';
import type { RedisKeys } from './redis-records.js';
import { unavailable } from './redis-failure.js';
import type { RedisTurnPipeline } from './redis-turn-pipeline.js';

interface Armed {
  category: string;
  key: string;
  hit: BucketHit;
}

/** Control-API changes to buckets, written to Redis after the request. */
export interface BucketChanges {
  cleared: boolean;
  deleted: Set<string>;
  filled: Map<string, { category: string; key: string; state: BucketState }>;
}

const noChanges = (): BucketChanges => ({ cleared: false, deleted: new Set(), filled: new Map() });
/** What `takeChanges` hands over when the control API changed no bucket (every other request): only read. */
const NO_CHANGES: BucketChanges = noChanges();

/**
 * Buckets on Redis. A request's count is one atomic script on the server (exact across processes): `hit`
 * suspends the request until the server answered, and answers from what it said when the request runs
 * again. The control API's reads and edits work on a copy loaded before its request and written after it.
 */
export class RedisBuckets implements BucketStore {
  readonly #turn: RedisTurnPipeline;
  readonly #keys: RedisKeys;
  readonly #copy: BucketTable;
  #armed: Armed | undefined;
  #changes = noChanges();

  constructor(redis: Redis, turn: RedisTurnPipeline, keys: RedisKeys, capacity: number, categories: readonly string[]) {
    this.#turn = turn;
    this.#keys = keys;
    this.#copy = new BucketTable(capacity, categories);
    redis.defineCommand('hitBucket', { numberOfKeys: 1, lua: HIT_BUCKET });
  }

  get size(): number {
    return this.#copy.size;
  }

  get capacity(): number {
    return this.#copy.capacity;
  }

  hit(category: string, key: string, now: number, windowEnd: number, limit: number): BucketHit {
    const armed = this.#armed;
    this.#armed = undefined;
    if (armed !== undefined && armed.category === category && armed.key === key) return armed.hit;
    const bucket = this.#keys.bucket(category, key);
    const counting = this.#turn.send<[number, number, number]>((pipeline) =>
      (pipeline as unknown as HitCommand).hitBucket(bucket, now, windowEnd, limit, BUCKET_GRACE_MS),
    );
    throw new StoreSuspension(
      counting.then(
        ([counted, count, end]) =>
          () =>
            this.handOver(category, key, { counted: counted === 1, count, windowEnd: end }),
        (error: unknown) => Promise.reject(unavailable(error)),
      ),
    );
  }

  /** Answers the next `hit` of (category, key) from what the server counted, if it comes in this synchronous run. */
  handOver(category: string, key: string, hit: BucketHit): void {
    const armed = { category, key, hit };
    this.#armed = armed;
    // A request that did not take it leaves it to no other: theirs are counted on the server.
    queueMicrotask(() => {
      if (this.#armed === armed) this.#armed = undefined;
    });
  }

  get(category: string, key: string, now: number): BucketState | undefined {
    return this.#copy.get(category, key, now);
  }

  fill(category: string, key: string, now: number, windowEnd: number, count: number) {
    const state = this.#copy.fill(category, key, now, windowEnd, count);
    if (!('full' in state)) this.#changes.filled.set(this.#keys.bucket(category, key), { category, key, state: { ...state } });
    return state;
  }

  delete(category: string, key: string): boolean {
    this.#changes.deleted.add(this.#keys.bucket(category, key));
    return this.#copy.delete(category, key);
  }

  clear(): void {
    this.#changes = { ...noChanges(), cleared: true };
    this.#copy.clear();
  }

  scan(now: number, cursor: number, limit: number, budget: number, category?: string): BucketPage {
    return this.#copy.scan(now, cursor, limit, budget, category);
  }

  /** Replaces the copy with the buckets on the server, for a control request. */
  load(buckets: Iterable<{ category: string; key: string; count: number; windowEnd: number }>, now: number): void {
    this.#copy.clear();
    for (const bucket of buckets) this.#copy.fill(bucket.category, bucket.key, now, bucket.windowEnd, bucket.count);
  }

  takeChanges(): BucketChanges {
    const changes = this.#changes;
    if (!changes.cleared && changes.deleted.size === 0 && changes.filled.size === 0) return NO_CHANGES;
    this.#changes = noChanges();
    return changes;
  }
}

interface HitCommand {
  hitBucket(key: string, now: number, windowEnd: number, limit: number, graceMs: number): unknown;
}
