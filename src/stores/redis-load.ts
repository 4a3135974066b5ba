import type { Redis } from 'iovalkey';
import { normalizeEmail } from '../core/email.js';
import type { ServiceRequest } from '../core/http.js';
import { headerValue } from '../core/http.js';
import type { OutboxMessage } from '../core/outbox.js';
import type { IssuedToken, PendingCode, Player, Store } from '../core/store.js';
import { parseCode, parseMessage, parsePlayer, parseToken, type RedisKeys } from './redis-records.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** What one request may read: the records behind its bearer token and behind the email in its body. */
export interface RequestKeys {
  token: string | undefined;
  email: string | undefined;
}

/** The keys an API request names, read leniently: the service itself judges the request afterwards. */
export function requestKeys(request: ServiceRequest): RequestKeys {
  const token = BEARER.exec(headerValue(request, 'authorization') ?? '')?.[1]?.toLowerCase();
  let email: string | undefined;
  if (request.body !== undefined && request.body.byteLength > 0 && request.body.byteLength <= 65_536) {
    try {
      const body = JSON.parse(new TextDecoder().decode(request.body)) as { email?: unknown };
      if (typeof body.email === 'string') email = normalizeEmail(body.email);
    } catch {
      // Not JSON: the service answers 400 and reads no record.
    }
  }
  return { token, email };
}

/** Records as found on the server for one request; undefined: not there. */
export interface LoadedRecords {
  /** The shared clock, as a JSON ClockState, or null before any process wrote it. */
  clock: string | null;
  token?: [string, IssuedToken | undefined];
  players: Map<string, Player | undefined>;
  playerIdByEmail?: [string, string | undefined];
  code?: [string, { code: PendingCode; messageId: number } | undefined];
}

/** Reads the shared clock and the records one API request may touch, in three round trips at most. */
export async function loadRequestRecords(redis: Redis, keys: RedisKeys, wanted: RequestKeys): Promise<LoadedRecords> {
  const first = redis.pipeline().get(keys.clock);
  if (wanted.token !== undefined) first.get(keys.token(wanted.token));
  if (wanted.email !== undefined) first.get(keys.playerByEmail(wanted.email)).get(keys.code(wanted.email));
  const answers = (await first.exec())!.map(([error, value]) => {
    if (error !== null) throw error;
    return value as string | null;
  });
  const loaded: LoadedRecords = { clock: answers.shift()!, players: new Map() };
  const token = wanted.token === undefined ? undefined : answers.shift();
  if (wanted.token !== undefined) loaded.token = [wanted.token, token == null ? undefined : parseToken(token)];
  const playerIds = loaded.token?.[1] === undefined ? [] : [loaded.token[1].playerId];
  if (wanted.email !== undefined) {
    const [playerId, code] = [answers.shift(), answers.shift()];
    loaded.playerIdByEmail = [wanted.email, playerId ?? undefined];
    if (playerId != null) playerIds.push(playerId);
    loaded.code = [wanted.email, undefined];
    if (code != null) {
      const { messageId } = JSON.parse(code) as { messageId: number };
      const message = await redis.get(keys.message(messageId));
      loaded.code[1] = parseCode(code, message === null ? lostMessage(wanted.email) : parseMessage(message));
    }
  }
  if (playerIds.length > 0) {
    const players = await redis.mget(playerIds.map(keys.player));
    for (const [index, id] of playerIds.entries()) loaded.players.set(id, players[index] == null ? undefined : parsePlayer(players[index]!));
  }
  return loaded;
}

/** A code whose outbox message was trimmed away: it still works, and its state is tracked on itself. */
function lostMessage(email: string): OutboxMessage {
  return { email, code: '', issuedAt: 0, expiresAt: 0, state: 'pending' };
}

/** Puts a player into the store as found on the server, keeping the object other requests may hold. */
export function putPlayer(store: Store, id: string, player: Player | undefined): void {
  const held = store.players.get(id);
  if (player === undefined) {
    store.players.delete(id);
    if (held !== undefined && store.playerIdsByEmail.get(held.email) === id) store.playerIdsByEmail.delete(held.email);
    return;
  }
  if (held === undefined) store.addPlayer(player);
  else Object.assign(held, player);
  store.playerIdsByEmail.set(player.email, id);
}

/** Applies what was read, so that the request sees the shared state and nothing a process kept of old. */
export function applyRecords(store: Store, loaded: LoadedRecords, now: number, messageIds: WeakMap<OutboxMessage, number>): void {
  for (const [id, player] of loaded.players) putPlayer(store, id, player);
  if (loaded.playerIdByEmail !== undefined) {
    const [email, id] = loaded.playerIdByEmail;
    if (id === undefined) store.playerIdsByEmail.delete(email);
  }
  if (loaded.token !== undefined) {
    const [token, issued] = loaded.token;
    if (issued === undefined) store.tokens.delete(token);
    else store.tokens.set(token, issued, issued.expiresAt, now);
  }
  if (loaded.code !== undefined) {
    const [email, found] = loaded.code;
    if (found === undefined) store.pendingCodes.delete(email);
    else {
      messageIds.set(found.code.message, found.messageId);
      store.pendingCodes.set(email, found.code, found.code.expiresAt, now);
    }
  }
}
