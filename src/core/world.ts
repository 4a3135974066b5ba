import { TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { initialActionPoints } from './action-points.js';
import { normalizeEmail } from './email.js';
import { ApiError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { randomToken } from './secrets.js';
import type { Player, Store } from './store.js';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Adds one player (or updates the one with that email) and issues a token valid for the token lifetime. */
export function seedPlayer(store: Store, options: ResolvedOptions, seed: WorldPlayer, now: number): SeededPlayer {
  const email = normalizeEmail(seed.email);
  if (seed.token !== undefined && !UUID.test(seed.token)) throw new ApiError(400, `token of ${email} must be a UUID`);
  const rules = options.actionPoints;
  const points = seed.actionPoints ?? rules.start;
  if (!Number.isInteger(points) || points < 0 || points > rules.max) {
    throw new ApiError(400, `actionPoints of ${email} must be an integer from 0 to ${rules.max}`);
  }
  const existing = store.playerByEmail(email);
  const player: Player = existing ?? {
    id: randomToken(),
    email,
    emailVerified: true,
    createdAt: now,
    actionPoints: initialActionPoints(rules, now),
    ship: null,
    inEncounter: false,
  };
  player.emailVerified = seed.emailVerified ?? true;
  player.actionPoints = { points, accruedAt: now };
  if (seed.ship !== undefined) player.ship = seed.ship === null ? null : { id: randomToken(), name: seed.ship.name, createdAt: now };
  player.inEncounter = seed.inEncounter ?? false;
  store.addPlayer(player);
  const authToken = seed.token?.toLowerCase() ?? randomToken();
  const expiresAt = now + TOKEN_LIFETIME_MS;
  store.tokens.set(authToken, { playerId: player.id, issuedAt: now, expiresAt }, expiresAt, now);
  return { id: player.id, email, authToken, expiresAt: new Date(expiresAt).toISOString() };
}

/** Replaces every player and token with the world's. */
export function loadWorld(store: Store, options: ResolvedOptions, world: World, now: number): SeededPlayer[] {
  const emails = world.players.map((seed) => normalizeEmail(seed.email));
  const duplicate = emails.find((email, index) => emails.indexOf(email) !== index);
  if (duplicate !== undefined) throw new ApiError(400, `the world lists ${duplicate} twice`);
  store.clearPlayers();
  return world.players.map((seed) => seedPlayer(store, options, seed, now));
}
