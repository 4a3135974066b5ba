import { TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { type ActionPointRules, initialActionPoints } from './action-points.js';
import { normalizeEmail } from './email.js';
import { ApiError } from './errors.js';
import { randomToken } from './secrets.js';
import { newPlayer } from './new-player.js';
import type { Store } from './store.js';

export interface WorldPlayer {
  email: string;
  /** Default true; an unverified player exists to exercise ship-creation gating. */
  emailVerified?: boolean;
  /** A fixed bearer token (UUID) for the player, so a client can sign in without the code round trip. */
  token?: string;
  actionPoints?: number;
  ship?: { name: string } | null;
  inEncounter?: boolean;
}

/** A seed world: the players a mock starts with, or loads at run time. */
export interface World {
  /** Lets an editor find the schema; ignored. */
  $schema?: string;
  description?: string;
  players: readonly WorldPlayer[];
}

export interface SeededPlayer {
  id: string;
  email: string;
  authToken: string;
  expiresAt: string;
}

/** A rule of a world that its schema cannot state, broken at `players[index]`. */
export interface WorldRuleBreach {
  index: number;
  field: 'actionPoints' | 'email' | 'token';
  /** Points above the maximum, or the address or token given again. */
  value: number | string;
  /** For a repeat: the index of the player that had the value first. */
  earlier?: number;
}

/** Each value met a second time (undefined: none given), with where it came first. */
function repeats(values: readonly (string | undefined)[], field: 'email' | 'token'): WorldRuleBreach[] {
  const firstIndex = new Map<string, number>();
  const breaches: WorldRuleBreach[] = [];
  values.forEach((value, index) => {
    if (value === undefined) return;
    const earlier = firstIndex.get(value);
    if (earlier === undefined) firstIndex.set(value, index);
    else breaches.push({ index, field, value, earlier });
  });
  return breaches;
}

/**
 * What a world's schema cannot say: points above this mock's maximum, one address or one token given to two
 * players; in that order, which is the order loadWorld refuses them in. Players are read as written (a field
 * may be missing or of another type), so that the CLI can report these beside a file's schema problems.
 */
export function worldRuleBreaches(players: readonly unknown[], maxActionPoints: number): WorldRuleBreach[] {
  const fields = players.map((player) => (typeof player === 'object' && player !== null ? (player as Record<string, unknown>) : {}));
  const overMax = fields.flatMap((player, index): WorldRuleBreach[] => {
    const points = player['actionPoints'];
    return typeof points === 'number' && points > maxActionPoints ? [{ index, field: 'actionPoints', value: points }] : [];
  });
  const emails = fields.map((player) => (typeof player['email'] === 'string' ? normalizeEmail(player['email']) : undefined));
  const tokens = fields.map((player) => (typeof player['token'] === 'string' ? player['token'].toLowerCase() : undefined));
  return [...overMax, ...repeats(emails, 'email'), ...repeats(tokens, 'token')];
}

/** The control API's words for a breach of `players`. */
function breachError(players: readonly WorldPlayer[], breach: WorldRuleBreach, maxActionPoints: number): ApiError {
  if (breach.field === 'actionPoints') {
    return new ApiError(400, `actionPoints of ${normalizeEmail(players[breach.index]!.email)} must be an integer from 0 to ${maxActionPoints}`);
  }
  return new ApiError(400, breach.field === 'email' ? `the world lists ${breach.value} twice` : `the world gives token ${breach.value} to two players`);
}

/** Refuses what the schema cannot (points within this mock's maximum, no repeats), before anything is changed. */
function checkPlayers(players: readonly WorldPlayer[], rules: ActionPointRules): void {
  const [breach] = worldRuleBreaches(players, rules.max);
  if (breach !== undefined) throw breachError(players, breach, rules.max);
}

function assertTokenFree(store: Store, token: string, email: string, now: number): void {
  const holder = store.tokens.get(token, now);
  if (holder !== undefined && store.players.get(holder.playerId)?.email !== email) {
    throw new ApiError(409, `token ${token} already belongs to another player`);
  }
}

function applySeed(store: Store, rules: ActionPointRules, seed: WorldPlayer, now: number): SeededPlayer {
  const email = normalizeEmail(seed.email);
  const player = store.playerByEmail(email) ?? newPlayer(email, rules, now);
  player.emailVerified = seed.emailVerified ?? true;
  player.actionPoints = seed.actionPoints === undefined ? initialActionPoints(rules, now) : { points: seed.actionPoints, accruedAt: now };
  if (seed.ship !== undefined) player.ship = seed.ship === null ? null : { id: randomToken(), name: seed.ship.name, createdAt: now };
  player.inEncounter = seed.inEncounter ?? false;
  store.addPlayer(player);
  const authToken = seed.token?.toLowerCase() ?? randomToken();
  const expiresAt = now + TOKEN_LIFETIME_MS;
  store.issueToken(authToken, player.id, now, expiresAt);
  return { id: player.id, email, authToken, expiresAt: new Date(expiresAt).toISOString() };
}

/** Adds one player (or updates the one with that email) and issues a token valid for the token lifetime. */
export function seedPlayer(store: Store, rules: ActionPointRules, seed: WorldPlayer, now: number): SeededPlayer {
  checkPlayers([seed], rules);
  if (seed.token !== undefined) assertTokenFree(store, seed.token.toLowerCase(), normalizeEmail(seed.email), now);
  return applySeed(store, rules, seed, now);
}

/** Replaces every player and token with the world's; a world with any fault changes nothing. */
export function loadWorld(store: Store, rules: ActionPointRules, world: World, now: number): SeededPlayer[] {
  checkPlayers(world.players, rules);
  store.clearPlayers();
  return world.players.map((seed) => applySeed(store, rules, seed, now));
}
