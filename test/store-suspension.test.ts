import { describe, expect, it } from 'vitest';
import { BucketTable, type BucketHit, type BucketStore } from '../src/core/bucket-table.js';
import { type StoreEngine, StoreSuspension } from '../src/core/store-engine.js';
import { type ChangeSet, StoreChanges } from '../src/stores/store-changes.js';
import { everyRouteHarness, everyRouteSession, normalized } from './support/every-route-session.js';

/**
 * Buckets counted "on a server" as Redis's are: `hit` counts at once, then suspends the request, and answers from
 * that count when the request runs again right after.
 */
class SuspendingBuckets implements BucketStore {
  readonly #table: BucketTable;
  readonly #engine: KeepingEngine;
  #armed: { category: string; key: string; hit: BucketHit } | undefined;

  constructor(table: BucketTable, engine: KeepingEngine) {
    this.#table = table;
    this.#engine = engine;
  }

  get size() {
    return this.#table.size;
  }

  get capacity() {
    return this.#table.capacity;
  }

  hit(category: string, key: string, now: number, windowEnd: number, limit: number) {
    const armed = this.#armed;
    this.#armed = undefined;
    if (armed !== undefined && armed.category === category && armed.key === key) return armed.hit;
    const hit = this.#table.hit(category, key, now, windowEnd, limit);
    if ('full' in hit) return hit;
    this.#engine.suspensions++;
    throw new StoreSuspension(Promise.resolve(() => (this.#armed = { category, key, hit })));
  }

  get(category: string, key: string, now: number) {
    return this.#table.get(category, key, now);
  }

  fill(category: string, key: string, now: number, windowEnd: number, count: number) {
    return this.#table.fill(category, key, now, windowEnd, count);
  }

  delete(category: string, key: string) {
    return this.#table.delete(category, key);
  }

  clear() {
    this.#table.clear();
  }

  scan(now: number, cursor: number, limit: number, budget: number, category?: string) {
    return this.#table.scan(now, cursor, limit, budget, category);
  }
}

/** What a request left for its engine to keep: the records as they stand when kept (codes by email only: they hold a random salt). */
function keptOf(changes: ChangeSet): string {
  return normalized({
    cleared: [...changes.cleared],
    players: [...changes.players.values()],
    tokens: [...changes.tokens.values()],
    codes: [...changes.codes.keys()],
    delivered: changes.delivered.map((message) => message.email),
  });
}

/** An engine that notes what each request touched when it keeps it; its buckets suspend every count once, or never. */
class KeepingEngine implements StoreEngine {
  readonly observer = new StoreChanges();
  readonly kept: string[] = [];
  suspensions = 0;

  constructor(readonly suspends: boolean) {}

  createBuckets(capacity: number, categories: readonly string[]): BucketStore {
    const table = new BucketTable(capacity, categories);
    return this.suspends ? new SuspendingBuckets(table, this) : table;
  }

  attach(): boolean {
    return false;
  }

  afterRequest(): void {
    this.kept.push(keptOf(this.observer.take()));
  }
}

describe('every route through a store suspension', () => {
  it('answers as without one, and what each request touched is kept', async () => {
    const memory = await everyRouteSession(everyRouteHarness(undefined));
    const plain = new KeepingEngine(false);
    const unsuspended = await everyRouteSession(everyRouteHarness(plain));
    const suspending = new KeepingEngine(true);
    const suspended = await everyRouteSession(everyRouteHarness(suspending));

    expect(suspending.suspensions).toBe(suspended.counted);
    expect(suspended.answers).toEqual(memory.answers);
    expect(unsuspended.answers).toEqual(memory.answers);
    expect(suspending.kept).toEqual(plain.kept);
    // The touched records are those of the session's own steps: the ship, the move's fields, the handler's state.
    expect(suspending.kept.join('\n')).toMatch(/"current_sector":5/);
    expect(suspending.kept.join('\n')).toMatch(/"rank":"pilot"/);
    expect(suspending.kept.join('\n')).toMatch(/"ore":2/);
  });
});
