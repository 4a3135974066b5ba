import { TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { type ActionPointRules, initialActionPoints } from './action-points.js';
import { normalizeEmail } from './email.js';
import { ApiError } from './errors.js';
import { randomToken } from './secrets.js';
import { newPlayer } from './new-player.js';
import { playerView } from './player.js';
import type { Player, Ship, Store } from './store.js';
import { assertJsonWithin, jsonCopy } from './user-routes/json-fields.js';
import { mockOwnFieldProblem, type ResourceKind, type ResourceTemplates, templateFields } from './user-routes/resource-templates.js';
import { MAX_RESOURCE_FIELDS_BYTES } from './user-routes/user-route.js';

/** The keys of a world's ship the mock reads itself. */
export interface KnownWorldShip {
  /** Default: `Ship` and the start of its id. */
  name?: string;
}

/** A world's ship: its name, and any other field, shown over the `ship` template's. */
export interface WorldShip extends KnownWorldShip {
  [field: string]: unknown;
}

/** The keys of a world's player the mock reads itself. */
export interface KnownWorldPlayer {
  email: string;
  /** Default true; an unverified player exists to exercise ship-creation gating. */
  emailVerified?: boolean;
  /** A fixed bearer token (UUID) for the player, so a client can sign in without the code round trip. */
  token?: string;
  actionPoints?: number;
  ship?: KnownWorldShip | null;
  inEncounter?: boolean;
}

export interface WorldPlayer extends KnownWorldPlayer {
  ship?: WorldShip | null;
  /** Any other field is a field of the player, shown over the `player` template's. */
  [field: string]: unknown;
}

/** What seeding reads of the mock's configuration: its action-point rules and the user's resource templates. */
export interface SeedRules {
  actionPoints: ActionPointRules;
  resources: ResourceTemplates;
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
export type WorldRuleBreach =
  | {
      index: number;
      field: 'actionPoints' | 'email' | 'token';
      /** Points above the maximum, or the address or token given again. */
      value: number | string;
      /** For a repeat: the index of the player that had the value first. */
      earlier?: number;
    }
  | {
      index: number;
      /** A field of the player (`fields`) or of its ship (`ship`) that names one the mock keeps itself. */
      field: 'fields' | 'ship';
      problem: string;
    };

const WORLD_PLAYER_KEYS = new Set(['email', 'emailVerified', 'token', 'actionPoints', 'ship', 'inEncounter']);

/** Fields of a world's player, and of its ship, that name one the mock keeps itself. */
function ownFieldBreaches(player: Record<string, unknown>, index: number): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  const given = mockOwnFieldProblem(
    'player',
    Object.keys(player).filter((key) => !WORLD_PLAYER_KEYS.has(key)),
  );
  if (given !== undefined) breaches.push({ index, field: 'fields', problem: given });
  const ship = player['ship'];
  if (typeof ship === 'object' && ship !== null) {
    const shipFields = mockOwnFieldProblem(
      'ship',
      Object.keys(ship).filter((key) => key !== 'name'),
    );
    if (shipFields !== undefined) breaches.push({ index, field: 'ship', problem: shipFields });
  }
  return breaches;
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
  return [...overMax, ...repeats(emails, 'email'), ...repeats(tokens, 'token'), ...fields.flatMap(ownFieldBreaches)];
}

/** The control API's words for a breach of `players`. */
function breachError(players: readonly WorldPlayer[], breach: WorldRuleBreach, maxActionPoints: number): ApiError {
  const email = normalizeEmail(players[breach.index]!.email);
  if ('problem' in breach) return new ApiError(400, `${breach.field === 'ship' ? `the ship of ${email}` : email} ${breach.problem}`);
  if (breach.field === 'actionPoints') {
    return new ApiError(400, `actionPoints of ${email} must be an integer from 0 to ${maxActionPoints}`);
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

/** The fields a world gives, over those the player or ship has: plain JSON, within their bound. */
function withGivenFields(kind: ResourceKind, fields: Record<string, unknown> | undefined, given: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...fields, ...(jsonCopy(`The world's ${kind} fields`, given) as Record<string, unknown>) };
  assertJsonWithin(`The ${kind}'s fields`, merged, MAX_RESOURCE_FIELDS_BYTES);
  return merged;
}

/** A world's ship, created as POST /api/player/ship would with the world's fields as its body, those fields then shown over all. */
function seededShip(store: Store, rules: SeedRules, player: Player, { name, ...given }: WorldShip, now: number): Ship {
  const id = randomToken();
  const ship: Ship = { id, name: name ?? `Ship ${id.slice(0, 8)}`, createdAt: now };
  const template = rules.resources.ship;
  if (template !== undefined) {
    ship.sequence = store.nextSequence('ship');
    const body = name === undefined ? given : { name, ...given };
    ship.owned = templateFields('ship', template, { body, player: playerView(player, rules.actionPoints, now), now, counter: ship.sequence });
  }
  if (Object.keys(given).length > 0) ship.owned = withGivenFields('ship', ship.owned, given);
  return ship;
}

function applySeed(store: Store, rules: SeedRules, seed: WorldPlayer, now: number): SeededPlayer {
  const { email: givenEmail, emailVerified, token, actionPoints, ship, inEncounter, ...given } = seed;
  const email = normalizeEmail(givenEmail);
  const points = rules.actionPoints;
  const player = store.playerByEmail(email) ?? newPlayer(email, points, now, { template: rules.resources.player, store });
  player.emailVerified = emailVerified ?? true;
  player.actionPoints = actionPoints === undefined ? initialActionPoints(points, now) : { points: actionPoints, accruedAt: now };
  if (Object.keys(given).length > 0) player.fields = withGivenFields('player', player.fields, given);
  if (ship !== undefined) player.ship = ship === null ? null : seededShip(store, rules, player, ship, now);
  player.inEncounter = inEncounter ?? false;
  store.addPlayer(player);
  const authToken = token?.toLowerCase() ?? randomToken();
  const expiresAt = now + TOKEN_LIFETIME_MS;
  store.issueToken(authToken, player.id, now, expiresAt);
  return { id: player.id, email, authToken, expiresAt: new Date(expiresAt).toISOString() };
}

/** Adds one player (or updates the one with that email) and issues a token valid for the token lifetime. */
export function seedPlayer(store: Store, rules: SeedRules, seed: WorldPlayer, now: number): SeededPlayer {
  checkPlayers([seed], rules.actionPoints);
  if (seed.token !== undefined) assertTokenFree(store, seed.token.toLowerCase(), normalizeEmail(seed.email), now);
  return applySeed(store, rules, seed, now);
}

/** Replaces every player and token with the world's; a world with any fault changes nothing. */
export function loadWorld(store: Store, rules: SeedRules, world: World, now: number): SeededPlayer[] {
  checkPlayers(world.players, rules.actionPoints);
  store.clearPlayers();
  return world.players.map((seed) => applySeed(store, rules, seed, now));
}
