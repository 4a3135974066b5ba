import { RATE_LIMITS } from '../spec/limits.js';
import { BucketTable, type BucketStore } from './bucket-table.js';
import { ExpiringMap } from './expiring-map.js';
import type { ActionPoints } from './action-points.js';
import { Outbox, type OutboxMessage } from './outbox.js';
import { ObservedExpiringMap, ObservedMap, ObservedOutbox } from './observed-maps.js';
import type { RecordKeeping } from './store-observer.js';
import { LocalSequences, type SequenceKind, type Sequences } from './sequences.js';

export interface Ship {
  id: string;
  name: string;
  createdAt: number;
  /** Every field of the creation payload, as given (the spec does not show the ship's fields). */
  fields?: Record<string, unknown>;
  /** The fields the user's `ship` template gave it, a world set, or routes wrote since: shown over every other field. */
  owned?: Record<string, unknown>;
  /** Its number in the order this mock made ships (1 for the first), as `{{counter}}` read it. */
  sequence?: number;
}

export interface Player {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: number;
  actionPoints: ActionPoints;
  ship: Ship | null;
  /** A fighter encounter blocks gameplay actions until it is resolved. */
  inEncounter: boolean;
  /** Tokens with a lower serial no longer work (a re-registration revoked them, as a variant). */
  firstValidTokenSerial: number;
  /** What the user's routes keep for this player (a move's sector, read back by a later GET); bounded in bytes. */
  routeState?: Record<string, unknown>;
  /** The fields the user's `player` template gave, a world set, or routes wrote since: shown over the mock's own. */
  fields?: Record<string, unknown>;
  /** Its number in the order this mock made players (1 for the first), as `{{counter}}` read it. */
  sequence?: number;
  /** How many times each recorded sequence of a route's answers was served to this player, by route and condition. */
  answersServed?: Record<string, number>;
}

export interface PendingCode {
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
  issuedAt: number;
  expiresAt: number;
  wrongAttempts: number;
  voided: boolean;
  /** The outbox copy, whose state follows this code's fate. */
  message: OutboxMessage;
}

export interface IssuedToken {
  playerId: string;
  issuedAt: number;
  expiresAt: number;
  /** Its place in the order of issue, so that tokens issued before a revocation are told apart on a frozen clock too. */
  serial: number;
}

/** How many records of each kind forgetting some addresses removed. */
export interface ForgottenRecords {
  players: number;
  tokens: number;
  codes: number;
  messages: number;
  buckets: number;
}

/** The categories whose buckets are keyed by the player id: a forgotten player's go with it. */
const PER_PLAYER_CATEGORIES = Object.entries(RATE_LIMITS).flatMap(([category, { scope }]) => (scope === 'player' ? [category] : []));

/** Caps on what unauthenticated traffic can make the mock remember (many source IPs, many emails). */
export interface StoreBounds {
  maxPendingCodes: number;
  maxBuckets: number;
  outboxSize: number;
}

/**
 * How long an expired code or token is kept (hidden) before it is swept: a conformance run moves the clock
 * up to a week and a few hours ahead (a token's lifetime) and then sets it back, and a developer's codes and
 * tokens must work again afterwards.
 */
export const KEEP_ENDED_MS = 8 * 24 * 60 * 60_000;

/** All state of one service instance, in typed Maps with the indexes the rules look things up by. */
export class Store {
  readonly players: Map<string, Player>;
  readonly playerIdsByEmail = new Map<string, string>();
  /** By normalized email: at most one live code per address. */
  readonly pendingCodes: ExpiringMap<string, PendingCode>;
  readonly tokens: ExpiringMap<string, IssuedToken>;
  /** By category, then client IP or player id. */
  readonly buckets: BucketStore;
  readonly outbox: Outbox;
  /** Players in the order they were added, so that a listing resumes from an index. */
  #playersInOrder: Player[] = [];
  readonly #sequences: Sequences;

  /** With an engine, every record touched is reported to its observer; without one, plain Maps. */
  constructor(bounds: StoreBounds, engine?: RecordKeeping) {
    const categories = Object.keys(RATE_LIMITS);
    this.buckets = engine?.createBuckets?.(bounds.maxBuckets, categories) ?? new BucketTable(bounds.maxBuckets, categories);
    this.#sequences = engine?.createSequences?.() ?? new LocalSequences();
    const observer = engine?.observer;
    if (observer === undefined) {
      this.players = new Map();
      this.pendingCodes = new ExpiringMap(bounds.maxPendingCodes, KEEP_ENDED_MS);
      this.tokens = new ExpiringMap(Number.POSITIVE_INFINITY, KEEP_ENDED_MS);
      this.outbox = new Outbox(bounds.outboxSize);
      return;
    }
    this.players = new ObservedMap(observer, 'players');
    this.pendingCodes = new ObservedExpiringMap(observer, 'codes', bounds.maxPendingCodes, KEEP_ENDED_MS);
    this.tokens = new ObservedExpiringMap(observer, 'tokens', Number.POSITIVE_INFINITY, KEEP_ENDED_MS);
    this.outbox = new ObservedOutbox(observer, bounds.outboxSize);
  }

  #tokenSerial = 0;

  /** The next number of a ship or a player, in the order this mock made them: 1 for the first. */
  nextSequence(kind: SequenceKind): number {
    return this.#sequences.next(kind);
  }

  /** A kept state's players and ships keep their numbers: the next ones follow the highest kept (numbers counted here). */
  continueSequencesFrom(players: Iterable<Player>): void {
    if (!(this.#sequences instanceof LocalSequences)) return;
    for (const player of players) {
      this.#sequences.continueFrom('player', player.sequence ?? 0);
      this.#sequences.continueFrom('ship', player.ship?.sequence ?? 0);
    }
  }

  /** Tokens issued from now on get serials from `next` on: a kept state continues its order of issue. */
  continueTokenSerialsFrom(next: number): void {
    this.#tokenSerial = Math.max(this.#tokenSerial, next);
  }

  issueToken(token: string, playerId: string, now: number, expiresAt: number): void {
    this.tokens.set(token, { playerId, issuedAt: now, expiresAt, serial: this.#tokenSerial++ }, now);
  }

  /** Every token issued to the player so far stops working; the next one issued works. */
  revokeTokens(player: Player): void {
    player.firstValidTokenSerial = this.#tokenSerial;
  }

  playerByEmail(email: string): Player | undefined {
    const id = this.playerIdsByEmail.get(email);
    return id === undefined ? undefined : this.players.get(id);
  }

  addPlayer(player: Player): void {
    if (!this.players.has(player.id)) this.#playersInOrder.push(player);
    this.players.set(player.id, player);
    this.playerIdsByEmail.set(player.email, player.id);
  }

  /** At most `limit` players from index `cursor` on, in the order they were added, and the index of the next. */
  playersFrom(cursor: number, limit: number): { players: Player[]; next: number | undefined } {
    const players = this.#playersInOrder.slice(cursor, cursor + limit);
    const next = cursor + players.length;
    return { players, next: next < this.#playersInOrder.length ? next : undefined };
  }

  /**
   * Forgets these addresses (normalized): the player of each, every token issued to it and its per-player
   * buckets; the code pending for each, and the outbox messages sent to it. Other players are untouched.
   */
  forgetEmails(emails: ReadonlySet<string>): ForgottenRecords {
    const doomed = new Set<string>();
    for (const email of emails) {
      const id = this.playerIdsByEmail.get(email);
      if (id === undefined) continue;
      doomed.add(id);
      this.players.delete(id);
      this.playerIdsByEmail.delete(email);
    }
    if (doomed.size > 0) this.#playersInOrder = this.#playersInOrder.filter((player) => !doomed.has(player.id));
    let buckets = 0;
    for (const id of doomed) for (const category of PER_PLAYER_CATEGORIES) if (this.buckets.delete(category, id)) buckets++;
    return {
      players: doomed.size,
      tokens: doomed.size === 0 ? 0 : this.tokens.deleteWhere((token) => doomed.has(token.playerId)),
      codes: this.pendingCodes.deleteWhere((_, email) => emails.has(email)),
      messages: this.outbox.removeWhere((message) => emails.has(message.email)),
      buckets,
    };
  }

  /** Forgets every player and every token issued to them. */
  clearPlayers(): void {
    this.#playersInOrder = [];
    this.players.clear();
    this.playerIdsByEmail.clear();
    this.tokens.clear();
  }
}
