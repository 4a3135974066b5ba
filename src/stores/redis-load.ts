import type { Redis } from 'iovalkey';
import { bearerToken } from '../core/auth.js';
import { MAX_BODY_BYTES } from '../core/body.js';
import type { BucketHit } from '../core/bucket-table.js';
import { normalizeEmail } from '../core/email.js';
import type { ServiceRequest } from '../core/http.js';
import type { OutboxMessage } from '../core/outbox.js';
import type { Precount, PrecountBucket } from '../core/store-engine.js';
import type { IssuedToken, PendingCode, Player, Store } from '../core/store.js';
import { BUCKET_GRACE_MS } from './redis-bucket-script.js';
import { COUNTS, LOAD_ANSWER_STRIDE, LOAD_RECORDS, READS, UNAUTHORIZED } from './redis-load-script.js';
import type { RedisTurnPipeline, ScriptCalls, SharedScript } from './redis-turn-pipeline.js';
import { parseCode, parseMessage, parsePlayer, parseToken, type RedisKeys } from './redis-records.js';

/** What one request may read: the records behind its bearer token and behind the email in its body. */
export interface RequestKeys {
  token: string | undefined;
  email: string | undefined;
}

/** The keys an API request names, read leniently: the service itself judges the request afterwards. */
export function requestKeys(request: ServiceRequest): RequestKeys {
  const token = bearerToken(request);
  let email: string | undefined;
  if (request.body !== undefined && request.body.byteLength > 0 && request.body.byteLength <= MAX_BODY_BYTES) {
    try {
      const body = JSON.parse(new TextDecoder().decode(request.body)) as { email?: unknown };
      if (typeof body.email === 'string') email = normalizeEmail(body.email);
    } catch {
      // Not JSON: the service answers 400 and reads no record.
    }
  }
  return { token, email };
}

/** A player as found on the server, and its record as stored, to tell later whether a request changed it. */
export interface LoadedPlayer {
  player: Player;
  record: string;
}

/** Records as found on the server for one request; undefined: not there. */
export interface LoadedRecords {
  /** The shared clock, as a JSON ClockState, or null before any process wrote it. */
  clock: string | null;
  token?: [string, IssuedToken | undefined];
  players: Map<string, LoadedPlayer | undefined>;
  playerIdByEmail?: [string, string | undefined];
  code?: [string, { code: PendingCode; messageId: number } | undefined];
  /** The planned count, made with the load: its bucket's category and key, and the server's answer. */
  countedAhead?: { category: string; key: string; hit: BucketHit };
}

/** A count to make with the load, and the shared clock it is made on: undefined for a clock not shared. */
export interface CountAhead {
  precount: Precount;
  clockSeen: string | undefined;
  isClockShared: boolean;
}

/** Registers the script that reads the records of a turn's requests on `redis`. */
export function defineLoadRecords(redis: Redis): void {
  redis.defineCommand('loadRecords', { lua: LOAD_RECORDS });
}

/** The load script as the turn pipeline calls it, with the clock key, the key prefixes and grace of `keys`. */
export function loadScript(keys: RedisKeys): SharedScript {
  return { command: 'loadRecords', sharedKeys: [keys.clock], shared: [keys.partPrefix('player'), keys.partPrefix('message'), BUCKET_GRACE_MS] };
}

/**
 * Reads the shared clock and the records one API request may touch, in one round trip with the other requests of
 * its turn (see LOAD_RECORDS).
 */
export async function loadRequestRecords(
  turn: RedisTurnPipeline,
  script: SharedScript,
  keys: RedisKeys,
  wanted: RequestKeys,
  ahead?: CountAhead,
): Promise<LoadedRecords> {
  const { token, email } = wanted;
  let first = 0;
  const answer = turn.join(script, (calls) => {
    first = 1 + calls.calls * LOAD_ANSWER_STRIDE;
    if (token !== undefined) calls.keys.push(keys.token(token));
    if (email !== undefined) calls.keys.push(keys.playerByEmail(email), keys.code(email));
    calls.args.push(token === undefined ? (email === undefined ? READS.nothing : READS.email) : email === undefined ? READS.token : READS.both);
    addCountArguments(calls, keys, ahead);
  });
  const found = (await answer) as (string | number | null)[];
  const clock = found[0] as string | null;
  const tokenText = found[first] as string | null;
  const loaded: LoadedRecords = { clock: clock ?? null, players: new Map() };
  if (token !== undefined) {
    const issued = tokenText == null ? undefined : parseToken(tokenText);
    loaded.token = [token, issued];
    const tokenPlayer = found[first + 1] as string | null;
    if (issued !== undefined) loaded.players.set(issued.playerId, tokenPlayer == null ? undefined : { player: parsePlayer(tokenPlayer), record: tokenPlayer });
  }
  const counted = found[first + 6] as number | null;
  if (counted != null) {
    const bucket = found[first + 9] === UNAUTHORIZED ? ahead!.precount.unauthorized! : ahead!.precount.admitted!;
    // Counted by the token's player only when the token was found.
    const key = bucket.ip ?? loaded.token![1]!.playerId;
    loaded.countedAhead = {
      category: bucket.category,
      key,
      hit: { counted: counted === 1, count: found[first + 7] as number, windowEnd: found[first + 8] as number },
    };
  }
  if (email !== undefined) {
    const emailPlayerId = found[first + 2] as string | null;
    const emailPlayer = found[first + 3] as string | null;
    const codeText = found[first + 4] as string | null;
    const message = found[first + 5] as string | null;
    loaded.playerIdByEmail = [email, emailPlayerId ?? undefined];
    if (emailPlayerId != null) loaded.players.set(emailPlayerId, emailPlayer == null ? undefined : { player: parsePlayer(emailPlayer), record: emailPlayer });
    loaded.code = [email, codeText == null ? undefined : parseCode(codeText, message == null ? lostMessage(email) : parseMessage(message))];
  }
  return loaded;
}

/** The count arguments a turn's load call sent last: a request that counts alike sends none of its own. */
interface SentCount {
  needsToken: boolean;
  admitted: PrecountBucket | undefined;
  unauthorized: PrecountBucket | undefined;
  isClockShared: boolean;
  clockSeen: string | undefined;
}

const sameBucket = (a: PrecountBucket | undefined, b: PrecountBucket | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.category === b.category && a.ip === b.ip && a.limit === b.limit);

/** A request's count arguments of the load script (C and what follows it in LOAD_RECORDS): none where the last request's hold. */
function addCountArguments(calls: ScriptCalls, keys: RedisKeys, ahead: CountAhead | undefined): void {
  if (ahead === undefined) {
    calls.args.push(COUNTS.nothing);
    return;
  }
  const { now, windowEnd, needsToken, admitted: a, unauthorized: u } = ahead.precount;
  const { isClockShared, clockSeen } = ahead;
  const sent = calls.memo as SentCount | undefined;
  if (
    sent !== undefined &&
    sent.needsToken === needsToken &&
    sent.isClockShared === isClockShared &&
    sent.clockSeen === clockSeen &&
    sameBucket(sent.admitted, a) &&
    sameBucket(sent.unauthorized, u)
  ) {
    calls.args.push(COUNTS.asBefore, now, windowEnd);
    return;
  }
  calls.memo = { needsToken, admitted: a, unauthorized: u, isClockShared, clockSeen } satisfies SentCount;
  calls.args.push(
    COUNTS.following,
    needsToken ? '1' : '',
    a === undefined ? '' : keys.bucket(a.category, ''),
    a?.ip ?? '',
    a?.limit ?? '',
    u === undefined ? '' : keys.bucket(u.category, ''),
    u?.ip ?? '',
    u?.limit ?? '',
    isClockShared ? `=${clockSeen ?? ''}` : '',
    now,
    windowEnd,
  );
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
  for (const [id, found] of loaded.players) putPlayer(store, id, found?.player);
  if (loaded.playerIdByEmail !== undefined) {
    const [email, id] = loaded.playerIdByEmail;
    if (id === undefined) store.playerIdsByEmail.delete(email);
  }
  if (loaded.token !== undefined) {
    const [token, issued] = loaded.token;
    const held = store.tokens.get(token, now);
    if (issued === undefined) store.tokens.delete(token);
    // Tokens never change once issued: setting the same one again would only churn the map.
    else if (held?.serial !== issued.serial || held.playerId !== issued.playerId || held.expiresAt !== issued.expiresAt) {
      store.tokens.set(token, issued, now);
    }
  }
  if (loaded.code !== undefined) {
    const [email, found] = loaded.code;
    if (found === undefined) store.pendingCodes.delete(email);
    else {
      messageIds.set(found.code.message, found.messageId);
      store.pendingCodes.set(email, found.code, now);
    }
  }
}
