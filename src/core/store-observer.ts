import type { BucketStore } from './bucket-table.js';
import type { OutboxMessage } from './outbox.js';
import type { Sequences } from './sequences.js';

/** The Maps of a Store whose records an engine keeps, by the key the Store indexes them with. */
export type RecordPart = 'players' | 'codes' | 'tokens';

/**
 * Told of every record a request reads, writes or deletes, so that an engine keeps exactly those. A player
 * or code read may then be changed in place (points spent, a code voided), so reads are reported too.
 */
export interface StoreObserver {
  read(part: RecordPart, key: string, value: unknown): void;
  /** `value` undefined: the key was deleted. */
  wrote(part: RecordPart, key: string, value: unknown): void;
  cleared(part: RecordPart | 'outbox'): void;
  delivered(message: OutboxMessage): void;
}

/** What a Store reads of its engine: whom to tell of each record touched, and where buckets are counted. */
export interface RecordKeeping {
  readonly observer: StoreObserver;
  /** Buckets kept by the engine (counted on its server); the Store's own table when absent. */
  createBuckets?(capacity: number, categories: readonly string[]): BucketStore;
  /** Numbers for `{{counter}}` shared with other processes; the Store counts its own when absent. */
  createSequences?(): Sequences;
}
