import type { Redis } from 'iovalkey';
import type { OutboxMessage } from '../core/outbox.js';
import type { IssuedToken, PendingCode, Player } from '../core/store.js';

/** Keys of one mock's state on a shared Redis, under its prefix. */
export function redisKeys(prefix: string) {
  return {
    player: (id: string) => `${prefix}player:${id}`,
    playerByEmail: (email: string) => `${prefix}email:${email}`,
    /** Player ids in the order they were added, for listings. */
    playerOrder: `${prefix}players`,
    token: (token: string) => `${prefix}token:${token}`,
    code: (email: string) => `${prefix}code:${email}`,
    message: (id: number) => `${prefix}message:${id}`,
    /** Outbox message ids, newest first, capped. */
    outbox: `${prefix}outbox`,
    messageSequence: `${prefix}message-sequence`,
    journal: `${prefix}journal`,
    bucket: (category: string, key: string) => `${prefix}bucket:${category}:${key}`,
    bucketPattern: `${prefix}bucket:*`,
    clock: `${prefix}clock`,
    /** The counter `{{counter}}` takes blocks of numbers from, per kind. */
    sequence: (kind: string) => `${prefix}sequence:${kind}`,
    /** What the keys of a part start with, for a script that builds them from what it read. */
    partPrefix: (part: 'player' | 'message') => `${prefix}${part}:`,
    /** Every key of this prefix, for a reset of a part. */
    pattern: (part: string) => `${prefix}${part}:*`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** The keys matching a pattern, a SCAN reply at a time (never KEYS, which blocks the server); the next SCAN waits for the caller. */
export async function* scanKeyBatches(redis: Redis, pattern: string): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}

/** A code as kept on Redis: its hash and salt in base64, and the id of its outbox message. */
interface StoredCode extends Omit<PendingCode, 'salt' | 'hash' | 'message'> {
  salt: string;
  hash: string;
  messageId: number;
}

export function codeRecord(code: PendingCode, messageId: number): string {
  const { salt, hash, message: _message, ...rest } = code;
  return JSON.stringify({ ...rest, salt: Buffer.from(salt).toString('base64'), hash: Buffer.from(hash).toString('base64'), messageId } satisfies StoredCode);
}

export function parseCode(text: string, message: OutboxMessage): { code: PendingCode; messageId: number } {
  const { salt, hash, messageId, ...rest } = JSON.parse(text) as StoredCode;
  const code: PendingCode = { ...rest, salt: new Uint8Array(Buffer.from(salt, 'base64')), hash: new Uint8Array(Buffer.from(hash, 'base64')), message };
  return { code, messageId };
}

export const playerRecord = (player: Player): string => JSON.stringify(player);
export const parsePlayer = (text: string): Player => JSON.parse(text) as Player;
export const tokenRecord = (token: IssuedToken): string => JSON.stringify(token);
export const parseToken = (text: string): IssuedToken => JSON.parse(text) as IssuedToken;
export const messageRecord = (message: OutboxMessage): string => JSON.stringify(message);
export const parseMessage = (text: string): OutboxMessage => JSON.parse(text) as OutboxMessage;
