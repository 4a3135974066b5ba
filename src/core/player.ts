import { MAX_SHIP_NAME_LENGTH } from '../spec/limits.js';
import { assertAffordable, initialActionPoints, refill, spend } from './action-points.js';
import { requiredString, type JsonObject } from './body.js';
import { ApiError } from './errors.js';
import { gameplayRouteId, type GameplayRoute, type ResolvedOptions } from './options.js';
import { randomToken } from './secrets.js';
import { refusalStatus } from './variant-effects.js';
import type { Player, Ship } from './store.js';

export const UNVERIFIED_SHIP_MESSAGE = 'Email verification is required before creating a ship';

/** A player as the service first knows them: no ship, no encounter, the starting points. */
export function newPlayer(email: string, options: ResolvedOptions, now: number): Player {
  return {
    id: randomToken(),
    email,
    emailVerified: true,
    createdAt: now,
    actionPoints: initialActionPoints(options.actionPoints, now),
    ship: null,
    inEncounter: false,
    firstValidTokenSerial: 0,
  };
}

function shipView(ship: Ship) {
  return { id: ship.id, name: ship.name, createdAt: new Date(ship.createdAt).toISOString() };
}

/** The mock-defined player resource (the spec does not show its fields). */
export function playerView(player: Player, options: ResolvedOptions, now: number) {
  refill(player.actionPoints, options.actionPoints, now);
  return {
    id: player.id,
    email: player.email,
    emailVerified: player.emailVerified,
    createdAt: new Date(player.createdAt).toISOString(),
    actionPoints: player.actionPoints.points,
    maxActionPoints: options.actionPoints.max,
    ship: player.ship === null ? null : shipView(player.ship),
  };
}

/** Rules every gameplay action shares: no open fighter encounter, enough action points. Returns the cost. */
function gameplayCost(player: Player, routeId: string, options: ResolvedOptions, now: number, allowedInEncounter = false): number {
  if (player.inEncounter && !allowedInEncounter) throw new ApiError(409, 'A fighter encounter must be resolved first');
  const cost = options.actionCosts[routeId] ?? 0;
  assertAffordable(player.actionPoints, cost, options, now);
  return cost;
}

/** A ship name of at most MAX_SHIP_NAME_LENGTH characters, not only white space, stored trimmed. */
function shipName(body: JsonObject, field: string): string {
  const name = requiredString(body, field, MAX_SHIP_NAME_LENGTH).trim();
  if (name.length === 0) throw new ApiError(400, `${field} must not be empty`);
  return name;
}

/** The public deployment's payload `{galaxyId, shipName}`, checked before the player's verification. */
function galaxyShipName(body: JsonObject): string {
  const galaxyId = body['galaxyId'];
  const validGalaxy = (typeof galaxyId === 'number' && Number.isSafeInteger(galaxyId) && galaxyId >= 0) || (typeof galaxyId === 'string' && /^[\w-]{1,64}$/.test(galaxyId));
  if (!validGalaxy) throw new ApiError(400, 'galaxyId is required: a galaxy number or id');
  return shipName(body, 'shipName');
}

/**
 * POST /api/player/ship: payload `{name}` (or, as a variant, `{galaxyId, shipName}` checked first); one ship
 * per player, and only for a verified player.
 */
export function createShip(player: Player, body: JsonObject, options: ResolvedOptions, now: number) {
  const galaxyName = options.variants.has('ship-payload-galaxy') ? galaxyShipName(body) : undefined;
  if (!player.emailVerified) throw new ApiError(refusalStatus(options.variants, 'unverified-ship'), UNVERIFIED_SHIP_MESSAGE);
  const cost = gameplayCost(player, 'createShip', options, now);
  const name = galaxyName ?? shipName(body, 'name');
  if (player.ship !== null) throw new ApiError(400, 'This player already has a ship');
  spend(player.actionPoints, cost, options, now);
  player.ship = { id: randomToken(), name, createdAt: now };
  return { success: true, ship: shipView(player.ship) } as const;
}

/** A gameplay route declared in the configuration: spends its cost and answers its configured body. */
export function performAction(player: Player, route: GameplayRoute, options: ResolvedOptions, now: number) {
  const cost = gameplayCost(player, gameplayRouteId(route), options, now, route.encounter === 'resolve');
  spend(player.actionPoints, cost, options, now);
  if (route.encounter !== undefined) player.inEncounter = route.encounter === 'start';
  return { ...route.response, success: true };
}
