import type { OutboxMessage } from '../core/outbox.js';
import type { RecordPart, StoreObserver } from '../core/store-observer.js';
import type { IssuedToken, PendingCode, Player } from '../core/store.js';

/** What requests touched since the engine last kept it: the final value per key (undefined: deleted). */
export interface ChangeSet {
  /** Parts forgotten as a whole, before the records below were touched. */
  cleared: Set<RecordPart | 'outbox'>;
  players: Map<string, Player | undefined>;
  codes: Map<string, PendingCode | undefined>;
  tokens: Map<string, IssuedToken | undefined>;
  /** Every code seen, also one replaced since: its outbox message's state changed with it. */
  codeValues: Set<PendingCode>;
  delivered: OutboxMessage[];
}

function emptyChangeSet(): ChangeSet {
  return { cleared: new Set(), players: new Map(), codes: new Map(), tokens: new Map(), codeValues: new Set(), delivered: [] };
}

/** What `take` hands over when nothing was touched: never written to (an engine only reads it, or clears its players). */
const NO_CHANGES: ChangeSet = emptyChangeSet();

/** Whether nothing is left to write (players may be taken out of a change set first). */
export function isEmptyChangeSet({ cleared, players, codes, tokens, delivered }: ChangeSet): boolean {
  return cleared.size + players.size + codes.size + tokens.size + delivered.length === 0;
}

/** The observer a store engine gives the Store: collects touched records until `take` hands them over. */
export class StoreChanges implements StoreObserver {
  #changes = emptyChangeSet();
  #muted = false;

  /** Runs `load` without recording what it writes: records loaded from the engine are no changes. */
  quietly(load: () => void): void {
    this.#muted = true;
    try {
      load();
    } finally {
      this.#muted = false;
    }
  }

  get isEmpty(): boolean {
    return isEmptyChangeSet(this.#changes);
  }

  // Tokens never change once issued: reading one is no change.
  read(part: RecordPart, key: string, value: unknown): void {
    if (part !== 'tokens') this.wrote(part, key, value);
  }

  wrote(part: RecordPart, key: string, value: unknown): void {
    if (this.#muted) return;
    (this.#changes[part] as Map<string, unknown>).set(key, value);
    if (part === 'codes' && value !== undefined) this.#changes.codeValues.add(value as PendingCode);
  }

  cleared(part: RecordPart | 'outbox'): void {
    if (this.#muted) return;
    this.#changes.cleared.add(part);
    if (part === 'outbox') this.#changes.delivered = [];
    else this.#changes[part].clear();
    if (part === 'codes') this.#changes.codeValues.clear();
  }

  delivered(message: OutboxMessage): void {
    if (this.#muted) return;
    this.#changes.delivered.push(message);
  }

  /** What was touched since the last call; a request that touched nothing is handed one shared empty set, and allocates none. */
  take(): ChangeSet {
    const changes = this.#changes;
    if (isEmptyChangeSet(changes) && changes.codeValues.size === 0) return NO_CHANGES;
    this.#changes = emptyChangeSet();
    return changes;
  }
}
