import { Redis } from 'iovalkey';
import { isControllable, type Clock, type ClockState, type ControllableClock } from '../core/clock.js';
import type { ServiceRequest } from '../core/http.js';
import type { Journal, JournalEntry } from '../core/journal.js';
import type { OutboxMessage } from '../core/outbox.js';
import type { RequestLoad, StoreEngine } from '../core/store-engine.js';
import type { Store } from '../core/store.js';
import { controlRouteOf } from '../spec/control-routes.js';
import { RedisBuckets } from './redis-buckets.js';
import { commitChanges, hasWrites, isBatchable, trimJournal, writeChanges } from './redis-commit.js';
import { RedisKeptPlayers } from './redis-kept-players.js';
import { unavailable } from './redis-failure.js';
import { readSharedState, type SharedState } from './redis-hydrate.js';
import { applyRecords, defineLoadRecords, loadRequestRecords, loadScript, type RequestKeys, requestKeys } from './redis-load.js';
import { redisKeys, type RedisKeys } from './redis-records.js';
import { StoreChanges } from './store-changes.js';
import { RedisTurnPipeline, type SharedScript } from './redis-turn-pipeline.js';
import { RedisWriteBatch } from './redis-write-batch.js';
import { RedisSequences } from './redis-sequences.js';

export interface RedisStoreOptions {
  outboxSize: number;
  journalSize: number;
}

/** The entries of a request that journaled none (another request took its entry): only read. */
const NO_ENTRIES: JournalEntry[] = [];

/** A control request names no record: it reads the whole state, or only the clock. */
const NO_KEYS: RequestKeys = { token: undefined, email: undefined };

/** Fails with the last 'error' event (refused, unknown host…), not connect's 'Connection is closed.'; kept listening, the client logs no error itself. */
async function connectTellingWhy(redis: Redis): Promise<void> {
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => (lastError = error));
  await redis.connect().catch((error: unknown) => Promise.reject(lastError ?? error));
}

/**
 * `--store redis://…`: players, tokens, codes, ships, action points, buckets, the outbox, the journal and the
 * clock on a Redis (or Valkey) that many mock processes share. The Store's Maps are this process's working
 * copy: before each request the records it names are read from Redis (the whole state for a control
 * request), and after it what it touched is written back in one transaction. Buckets are counted by one
 * atomic script per request on the server.
 */
export class RedisStore implements StoreEngine {
  readonly observer = new StoreChanges();
  readonly #redis: Redis;
  readonly #keys: RedisKeys;
  readonly #options: RedisStoreOptions;
  readonly #messageIds = new WeakMap<OutboxMessage, number>();
  readonly #kept = new RedisKeptPlayers();
  readonly #sequences: RedisSequences;
  #store: Store | undefined;
  #buckets: RedisBuckets | undefined;
  #clock: ControllableClock | undefined;
  #clockSeen: string | undefined;
  /** This process's clock state as last serialized, with the values it was made from. */
  #clockText: { offsetMs: number; frozenAt: number | null; text: string } | undefined;
  #journal: Journal | undefined;
  #journalEntries: JournalEntry[] = [];
  readonly #batch: RedisWriteBatch;
  readonly #turn: RedisTurnPipeline;
  readonly #loadScript: SharedScript;
  /** Entries read back for the control request in flight: an empty journal after it was a reset. */
  #journalLoaded = 0;

  /** The state found on connecting: a world is seeded only by the process that finds none. */
  readonly #hadState: boolean;

  private constructor(redis: Redis, prefix: string, options: RedisStoreOptions, hadState: boolean) {
    this.#redis = redis;
    defineLoadRecords(redis);
    this.#keys = redisKeys(prefix);
    this.#options = options;
    this.#turn = new RedisTurnPipeline(redis);
    this.#loadScript = loadScript(this.#keys);
    this.#sequences = new RedisSequences(redis, this.#keys.sequence);
    this.#batch = new RedisWriteBatch(redis, (batch) => trimJournal(batch, this.#keys, options.journalSize));
    this.#hadState = hadState;
  }

  /** Connects once and lets go: whether the server answers. */
  static async probe(url: string): Promise<void> {
    const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await connectTellingWhy(redis);
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  }

  /** Connects (failing at once when Redis cannot be reached) and claims the seeding of a fresh prefix. */
  static async connect(url: string, prefix: string, options: RedisStoreOptions): Promise<RedisStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      // Fail a request at once while disconnected (answered 503), and keep reconnecting in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 2_000,
      retryStrategy: () => 200,
    });
    // Errors are reported per request as 503 while the client reconnects by itself; at start, the reason it failed.
    try {
      await connectTellingWhy(redis);
      const claimed = await redis.set(`${prefix}seeded`, '1', 'NX');
      return new RedisStore(redis, prefix, options, claimed === null);
    } catch (error) {
      redis.disconnect();
      throw error;
    }
  }

  createBuckets(capacity: number, categories: readonly string[]): RedisBuckets {
    this.#buckets = new RedisBuckets(this.#redis, this.#turn, this.#keys, capacity, categories);
    return this.#buckets;
  }

  createSequences(): RedisSequences {
    return this.#sequences;
  }

  attach(store: Store, clock: Clock): boolean {
    this.#store = store;
    this.#clock = isControllable(clock) ? clock : undefined;
    return this.#hadState;
  }

  /** Shares the journal: a control request reads it back from Redis into this one. */
  shareJournal(journal: Journal): void {
    this.#journal = journal;
  }

  /** An answered request, written to the shared journal after it. */
  journaled(entry: JournalEntry): void {
    this.#journalEntries.push(entry);
  }

  /** Takes the shared clock, or publishes this process's when Redis has none yet. */
  async followClock(): Promise<void> {
    if (this.#clock === undefined) return;
    await this.#redis.set(this.#keys.clock, JSON.stringify(this.#clock.state), 'NX');
    this.#followClock(await this.#redis.get(this.#keys.clock));
  }

  /** Loads the request's records; makes its planned count with them, when the shared clock is as last seen. */
  async beforeRequest(request: ServiceRequest, load: RequestLoad): Promise<(() => void) | undefined> {
    if (this.#redis.status !== 'ready') throw unavailable(new Error(`connection ${this.#redis.status}`));
    try {
      if (this.#sequences.spent) await this.#sequences.reserve();
      const { control, precount } = load;
      const ahead = precount === undefined ? undefined : { precount, clockSeen: this.#clockSeen, isClockShared: this.#clock !== undefined };
      const loaded = await loadRequestRecords(this.#turn, this.#loadScript, this.#keys, control ? NO_KEYS : requestKeys(request), ahead);
      this.#followClock(loaded.clock);
      if (control) {
        if (controlRouteOf(request.method, request.path)?.clockOnly !== true)
          this.#applyShared(await readSharedState(this.#redis, this.#keys, this.#options.outboxSize, this.#options.journalSize));
        return undefined;
      }
      const store = this.#store!;
      this.observer.quietly(() => {
        applyRecords(store, loaded, this.#now(), this.#messageIds);
        for (const [id, found] of loaded.players) this.#kept.kept(id, store.players.get(id), found?.record);
      });
      const counted = loaded.countedAhead;
      return counted === undefined ? undefined : () => this.#buckets!.handOver(counted.category, counted.key, counted.hit);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * Writes what the requests answered since the last call touched. Most join the next batch (one MULTI for
   * all requests answered in a turn of the event loop); one that clears a part or delivers a message sends
   * the batch first and then writes alone, as it needs the server's answers before its MULTI.
   */
  async afterRequest(): Promise<void> {
    const clockState = this.#clockState();
    const clockChanged = clockState !== undefined && clockState !== this.#clockSeen;
    const buckets = this.#buckets!.takeChanges();
    // Fewer entries than a control request loaded: a reset, or a removal, written as the list cleared and what is left pushed again.
    const journalCleared = this.#journalLoaded > 0 && (this.#journal?.size ?? 0) < this.#journalLoaded;
    this.#journalLoaded = 0;
    // Taken now, before any await: what a later request loads may overwrite the same player objects.
    const changes = this.observer.take();
    const players = this.#kept.take(changes);
    const journal = journalCleared ? this.#journal!.newest().reverse() : this.#journalEntries.length === 0 ? NO_ENTRIES : this.#journalEntries;
    if (journalCleared || journal !== NO_ENTRIES) this.#journalEntries = [];
    if (clockChanged) this.#clockSeen = clockState;
    const { outboxSize, journalSize } = this.#options;
    const extras = { buckets, journal, journalSize, journalCleared, outboxSize, clock: clockChanged ? clockState : undefined, now: this.#now() };
    try {
      if (!hasWrites(changes, players, extras)) await this.#batch.pending;
      else if (isBatchable(changes, extras)) await this.#batch.add((batch) => writeChanges(batch, this.#keys, changes, players, this.#messageIds, extras));
      else await this.#batch.alone(() => commitChanges(this.#redis, this.#keys, changes, players, this.#messageIds, extras));
    } catch (error) {
      // Not known to be on the server: written again by the next request that has them.
      this.#kept.forget(players.keys());
      throw unavailable(error);
    }
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  /** The clock's state as shared: serialized again only when it moved, which few requests do. */
  #clockState(): string | undefined {
    if (this.#clock === undefined) return undefined;
    const state = this.#clock.state;
    const last = this.#clockText;
    if (last?.offsetMs === state.offsetMs && last.frozenAt === state.frozenAt) return last.text;
    this.#clockText = { offsetMs: state.offsetMs, frozenAt: state.frozenAt, text: JSON.stringify(state) };
    return this.#clockText.text;
  }

  #now(): number {
    return this.#clock?.now() ?? Date.now();
  }

  /**
   * Every request reads the shared clock first, so that a move through any process holds for the next request
   * anywhere. Restored only when Redis holds another value than last seen there: a move made here stands until written.
   */
  #followClock(shared: string | null): void {
    if (shared === null || shared === this.#clockSeen || this.#clock === undefined) return;
    this.#clockSeen = shared;
    this.#clock.restore(JSON.parse(shared) as ClockState);
  }

  /** Replaces the working copy with the shared state, for a control request. */
  #applyShared(shared: SharedState): void {
    const store = this.#store!;
    const now = this.#now();
    this.observer.quietly(() => {
      store.clearPlayers();
      for (const player of shared.players) store.addPlayer(player);
      for (const [token, issued] of shared.tokens) store.tokens.set(token, issued, now);
      store.pendingCodes.clear();
      for (const [email, code, messageId] of shared.codes) {
        this.#messageIds.set(code.message, messageId);
        store.pendingCodes.set(email, code, now);
      }
      store.outbox.clear();
      for (const [message, id] of shared.outbox.toReversed()) {
        this.#messageIds.set(message, id);
        store.outbox.add(message);
      }
    });
    this.#kept.clear();
    for (const player of shared.players) this.#kept.kept(player.id, player, JSON.stringify(player));
    this.#buckets!.load(shared.buckets, now);
    this.#buckets!.takeChanges();
    if (this.#journal !== undefined) {
      this.#journal.clear();
      for (const entry of shared.journal.toReversed()) this.#journal.add(entry);
      this.#journalLoaded = shared.journal.length;
    }
  }
}
