import type { Redis } from 'iovalkey';
import type { JournalEntry } from '../core/journal.js';
import type { OutboxMessage } from '../core/outbox.js';
import type { IssuedToken, PendingCode, Player } from '../core/store.js';
import { parseCode, parseMessage, parsePlayer, parseToken, type RedisKeys, scanKeyBatches } from './redis-records.js';

/** The whole shared state, as a control request reads it (listings, worlds, scenarios, reset). */
export interface SharedState {
  players: Player[];
  tokens: [string, IssuedToken][];
  codes: [string, PendingCode, number][];
  /** Newest first, with their ids. */
  outbox: [OutboxMessage, number][];
  /** Newest first. */
  journal: JournalEntry[];
  buckets: { category: string; key: string; count: number; windowEnd: number }[];
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeyBatches(redis, pattern)) found.push(...keys);
  return found;
}

async function values(redis: Redis, keys: string[]): Promise<(string | null)[]> {
  return keys.length === 0 ? [] : redis.mget(keys);
}

async function messagesById(redis: Redis, keys: RedisKeys, ids: number[]): Promise<Map<number, OutboxMessage>> {
  const found = await values(redis, ids.map(keys.message));
  return new Map(ids.flatMap((id, index) => (found[index] == null ? [] : [[id, parseMessage(found[index]!)] as const])));
}

/** Reads everything under the prefix; buckets and the journal only when asked. */
export async function readSharedState(redis: Redis, keys: RedisKeys, outboxSize: number, journalSize: number): Promise<SharedState> {
  const playerIds = await redis.zrange(keys.playerOrder, 0, -1);
  const players = (await values(redis, playerIds.map(keys.player))).flatMap((text) => (text === null ? [] : [parsePlayer(text)]));
  const tokenKeys = await scanKeys(redis, keys.pattern('token'));
  const tokenTexts = await values(redis, tokenKeys);
  const tokens = tokenKeys.flatMap((key, index) =>
    tokenTexts[index] == null ? [] : [[key.slice(keys.token('').length), parseToken(tokenTexts[index]!)] as [string, IssuedToken]],
  );
  const outboxIds = (await redis.lrange(keys.outbox, 0, outboxSize - 1)).map(Number);
  const codeKeys = await scanKeys(redis, keys.pattern('code'));
  const codeTexts = (await values(redis, codeKeys))
    .map((text, index) => [codeKeys[index]!, text] as const)
    .filter((entry): entry is [string, string] => entry[1] !== null);
  const codeMessageIds = codeTexts.map(([, text]) => (JSON.parse(text) as { messageId: number }).messageId);
  const messages = await messagesById(redis, keys, [...new Set([...outboxIds, ...codeMessageIds])]);
  const codes = codeTexts.flatMap(([key, text], index) => {
    const message = messages.get(codeMessageIds[index]!);
    if (message === undefined) return [];
    const { code, messageId } = parseCode(text, message);
    return [[key.slice(keys.code('').length), code, messageId] as [string, PendingCode, number]];
  });
  const outbox = outboxIds.flatMap((id) => (messages.has(id) ? [[messages.get(id)!, id] as [OutboxMessage, number]] : []));
  const journal = (await redis.lrange(keys.journal, 0, journalSize - 1)).map((text) => JSON.parse(text) as JournalEntry);
  const bucketKeys = await scanKeys(redis, keys.bucketPattern);
  const bucketStates = bucketKeys.length === 0 ? [] : await Promise.all(bucketKeys.map((key) => redis.hmget(key, 'count', 'windowEnd')));
  const prefix = keys.bucket('', '').slice(0, -1);
  const buckets = bucketKeys.flatMap((key, index) => {
    const [count, windowEnd] = bucketStates[index]!;
    if (count == null || windowEnd == null) return [];
    const rest = key.slice(prefix.length);
    const split = rest.indexOf(':');
    return [{ category: rest.slice(0, split), key: rest.slice(split + 1), count: Number(count), windowEnd: Number(windowEnd) }];
  });
  return { players, tokens, codes, outbox, journal, buckets };
}
