import { TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { initialActionPoints } from './action-points.js';
import { normalizeEmail } from './email.js';
import { ApiError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { randomToken } from './secrets.js';
import { newPlayer } from './player.js';
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

/** Checks what the schema cannot (points within this mock's maximum), before anything is changed. */
function checkSeed(seed: WorldPlayer, options: ResolvedOptions): void {
  if (seed.actionPoints !== undefined && seed.actionPoints > options.actionPoints.max) {
    throw new ApiError(400, `actionPoints of ${normalizeEmail(seed.email)} must be an integer from 0 to ${options.actionPoints.max}`);
  }
}

function assertTokenFree(store: Store, token: string, email: string, now: number): void {
  const holder = store.tokens.get(token, now);
  if (holder !== undefined && store.players.get(holder.playerId)?.email !== email) {
    throw new ApiError(409, `token ${token} already belongs to another player`);
  }
}

function applySeed(store: Store, options: ResolvedOptions, seed: WorldPlayer, now: number): SeededPlayer {
  const email = normalizeEmail(seed.email);
  const rules = options.actionPoints;
  const player = store.playerByEmail(email) ?? newPlayer(email, options, now);
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
export function seedPlayer(store: Store, options: ResolvedOptions, seed: WorldPlayer, now: number): SeededPlayer {
  checkSeed(seed, options);
  if (seed.token !== undefined) assertTokenFree(store, seed.token.toLowerCase(), normalizeEmail(seed.email), now);
  return applySeed(store, options, seed, now);
}

function firstRepeat(values: readonly string[]): string | undefined {
  return values.find((value, index) => values.indexOf(value) !== index);
}

/** Replaces every player and token with the world's; a world with any fault changes nothing. */
export function loadWorld(store: Store, options: ResolvedOptions, world: World, now: number): SeededPlayer[] {
  for (const seed of world.players) checkSeed(seed, options);
  const repeatedEmail = firstRepeat(world.players.map((seed) => normalizeEmail(seed.email)));
  if (repeatedEmail !== undefined) throw new ApiError(400, `the world lists ${repeatedEmail} twice`);
  const repeatedToken = firstRepeat(world.players.flatMap((seed) => (seed.token === undefined ? [] : [seed.token.toLowerCase()])));
  if (repeatedToken !== undefined) throw new ApiError(400, `the world gives token ${repeatedToken} to two players`);
  store.clearPlayers();
  return world.players.map((seed) => applySeed(store, options, seed, now));
}
