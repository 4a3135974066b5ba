import type { ChainableCommander, Redis } from 'iovalkey';
import type { JournalEntry } from '../core/journal.js';
import type { OutboxMessage } from '../core/outbox.js';
import { KEEP_ENDED_MS } from '../core/store.js';
import type { BucketChanges } from './redis-buckets.js';
import { BUCKET_GRACE_MS } from './redis-bucket-script.js';
import type { PlayerWrites } from './redis-kept-players.js';
import { codeRecord, messageRecord, type RedisKeys, scanKeyBatches, tokenRecord } from './redis-records.js';
import { execOrThrow } from './redis-write-batch.js';
import { isEmptyChangeSet, type ChangeSet } from './store-changes.js';

/** What one commit writes besides the Store's records. */
export interface CommitExtras {
  buckets: BucketChanges;
  journal: JournalEntry[];
  journalSize: number;
  /** The journal was emptied by the request (a reset). */
  journalCleared: boolean;
  outboxSize: number;
  clock: string | undefined;
  now: number;
}

/** Milliseconds Redis keeps a code or token: until its end on the mock's clock, and as long as the Store keeps ended ones. */
const keepFor = (expiresAt: number, now: number) => Math.max(1, expiresAt - now) + KEEP_ENDED_MS;

async function deleteMatching(redis: Redis, pattern: string): Promise<void> {
  for await (const keys of scanKeyBatches(redis, pattern)) await redis.unlink(...keys);
}

/** Parts a request forgot as a whole go first, key by key (SCAN, never KEYS). */
async function clearParts(redis: Redis, keys: RedisKeys, changes: ChangeSet, extras: CommitExtras): Promise<void> {
  if (changes.cleared.has('players')) {
    await deleteMatching(redis, keys.pattern('player'));
    await deleteMatching(redis, keys.pattern('email'));
    await redis.unlink(keys.playerOrder);
  }
  if (changes.cleared.has('tokens')) await deleteMatching(redis, keys.pattern('token'));
  if (changes.cleared.has('codes')) await deleteMatching(redis, keys.pattern('code'));
  if (changes.cleared.has('outbox')) await redis.unlink(keys.outbox);
  if (extras.buckets.cleared) await deleteMatching(redis, keys.bucketPattern);
  if (extras.journalCleared) await redis.unlink(keys.journal);
}

function writeRecords(
  batch: ChainableCommander,
  keys: RedisKeys,
  changes: ChangeSet,
  players: PlayerWrites,
  messageIds: WeakMap<OutboxMessage, number>,
  extras: CommitExtras,
): void {
  const { now } = extras;
  for (const message of changes.delivered) {
    const id = messageIds.get(message)!;
    batch.set(keys.message(id), messageRecord(message), 'PX', keepFor(message.expiresAt, now)).lpush(keys.outbox, id);
  }
  if (changes.delivered.length > 0) batch.ltrim(keys.outbox, 0, extras.outboxSize - 1);
  for (const code of changes.codeValues) {
    const id = messageIds.get(code.message);
    if (id !== undefined) batch.set(keys.message(id), messageRecord(code.message), 'KEEPTTL');
  }
  for (const [id, write] of players) {
    if (write === undefined) {
      batch.unlink(keys.player(id)).zrem(keys.playerOrder, id);
      continue;
    }
    const { record, email, createdAt } = write;
    batch.set(keys.player(id), record).set(keys.playerByEmail(email), id).zadd(keys.playerOrder, 'NX', createdAt, id);
  }
  for (const [token, issued] of changes.tokens) {
    if (issued === undefined) batch.unlink(keys.token(token));
    else batch.set(keys.token(token), tokenRecord(issued), 'PX', keepFor(issued.expiresAt, now));
  }
  for (const [email, code] of changes.codes) {
    if (code === undefined) batch.unlink(keys.code(email));
    else batch.set(keys.code(email), codeRecord(code, messageIds.get(code.message) ?? 0), 'PX', keepFor(code.expiresAt, now));
  }
}

/** Keeps the newest `size` journal entries. */
export function trimJournal(batch: ChainableCommander, keys: RedisKeys, size: number): void {
  batch.ltrim(keys.journal, 0, size - 1);
}

/** Whether a request left anything to write (another may have taken its changes before it ended). */
export function hasWrites(changes: ChangeSet, players: PlayerWrites, extras: CommitExtras): boolean {
  const { buckets } = extras;
  const bucketChanges = buckets.cleared || buckets.deleted.size + buckets.filled.size > 0;
  return !isEmptyChangeSet(changes) || players.size > 0 || extras.clock !== undefined || extras.journal.length > 0 || extras.journalCleared || bucketChanges;
}

/** Whether a request's changes can join a batch: no part cleared, no outbox message in need of an id. */
export function isBatchable(changes: ChangeSet, extras: CommitExtras): boolean {
  return changes.cleared.size === 0 && changes.delivered.length === 0 && !extras.buckets.cleared && !extras.journalCleared;
}

/** A request's changes, as commands added to a MULTI (the journal not trimmed). */
export function writeChanges(
  batch: ChainableCommander,
  keys: RedisKeys,
  changes: ChangeSet,
  players: PlayerWrites,
  messageIds: WeakMap<OutboxMessage, number>,
  extras: CommitExtras,
): void {
  writeRecords(batch, keys, changes, players, messageIds, extras);
  writeExtras(batch, keys, extras);
}

function writeExtras(batch: ChainableCommander, keys: RedisKeys, extras: CommitExtras): void {
  for (const key of extras.buckets.deleted) batch.unlink(key);
  for (const [key, { state }] of extras.buckets.filled) {
    batch.hset(key, 'count', state.count, 'windowEnd', state.windowEnd).pexpire(key, Math.max(1, state.windowEnd - extras.now) + BUCKET_GRACE_MS);
  }
  if (extras.journal.length > 0) batch.lpush(keys.journal, ...extras.journal.map((entry) => JSON.stringify(entry)));
  if (extras.clock !== undefined) batch.set(keys.clock, extras.clock);
}

/**
 * Writes one request's changes: cleared parts first, then every record in one MULTI, so that another
 * process never reads half of a request's changes. New outbox messages get their ids from the server.
 */
export async function commitChanges(
  redis: Redis,
  keys: RedisKeys,
  changes: ChangeSet,
  players: PlayerWrites,
  messageIds: WeakMap<OutboxMessage, number>,
  extras: CommitExtras,
): Promise<void> {
  await clearParts(redis, keys, changes, extras);
  if (changes.delivered.length > 0) {
    const last = await redis.incrby(keys.messageSequence, changes.delivered.length);
    for (const [index, message] of changes.delivered.entries()) messageIds.set(message, last - changes.delivered.length + 1 + index);
  }
  const batch = redis.multi();
  writeChanges(batch, keys, changes, players, messageIds, extras);
  if (extras.journal.length > 0) trimJournal(batch, keys, extras.journalSize);
  await execOrThrow(batch);
}
