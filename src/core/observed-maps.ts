import { type Expiring, ExpiringMap } from './expiring-map.js';
import { Outbox, type OutboxMessage } from './outbox.js';
import type { RecordPart, StoreObserver } from './store-observer.js';

/** A Map that tells its observer of every record read, written or deleted. */
export class ObservedMap<V> extends Map<string, V> {
  readonly #observer: StoreObserver;
  readonly #part: RecordPart;

  constructor(observer: StoreObserver, part: RecordPart) {
    super();
    this.#observer = observer;
    this.#part = part;
  }

  override get(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined) this.#observer.read(this.#part, key, value);
    return value;
  }

  override set(key: string, value: V): this {
    this.#observer.wrote(this.#part, key, value);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.#observer.wrote(this.#part, key, undefined);
    return super.delete(key);
  }

  override clear(): void {
    this.#observer.cleared(this.#part);
    super.clear();
  }
}

/** An ExpiringMap that tells its observer of every live record read, written or deleted. */
export class ObservedExpiringMap<V extends Expiring> extends ExpiringMap<string, V> {
  readonly #observer: StoreObserver;
  readonly #part: RecordPart;

  constructor(observer: StoreObserver, part: RecordPart, maxEntries: number, keepEndedMs: number) {
    super(maxEntries, keepEndedMs);
    this.#observer = observer;
    this.#part = part;
  }

  override get(key: string, now: number): V | undefined {
    const value = super.get(key, now);
    if (value !== undefined) this.#observer.read(this.#part, key, value);
    return value;
  }

  override set(key: string, value: V, now: number): void {
    this.#observer.wrote(this.#part, key, value);
    super.set(key, value, now);
  }

  override delete(key: string): void {
    this.#observer.wrote(this.#part, key, undefined);
    super.delete(key);
  }

  override clear(): void {
    this.#observer.cleared(this.#part);
    super.clear();
  }
}

/** An Outbox that tells its observer of every delivered code. */
export class ObservedOutbox extends Outbox {
  readonly #observer: StoreObserver;

  constructor(observer: StoreObserver, capacity: number) {
    super(capacity);
    this.#observer = observer;
  }

  override add(message: OutboxMessage): void {
    this.#observer.delivered(message);
    super.add(message);
  }

  override clear(): void {
    this.#observer.cleared('outbox');
    super.clear();
  }
}
