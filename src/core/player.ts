import { MAX_SHIP_NAME_LENGTH } from '../spec/limits.js';
import { type ActionPointRules, assertAffordable, refill, spend } from './action-points.js';
import { requiredString, type JsonObject } from './body.js';
import { ApiError } from './errors.js';
import { isoTime } from './iso-time.js';
import type { RequestContext } from './request-context.js';
import { randomToken } from './secrets.js';
import { refusalStatus } from './variant-effects.js';
import { NO_SHIP_MESSAGE, templateFields } from './user-routes/resource-templates.js';
import type { Player, Ship } from './store.js';

/** What performAction reads of a user's gameplay route: its id (actionCosts' key) and its encounter. */
export interface UserGameplayAction {
  id: string;
  encounter?: 'start' | 'resolve' | undefined;
}

export const UNVERIFIED_SHIP_MESSAGE = 'Email verification is required before creating a ship';

/**
 * The ship: the fields it was created with, the user's over them (its template's, a world's, what routes wrote), and
 * the mock's own id, name and createdAt, which the user's never name.
 */
export function shipView(ship: Ship) {
  // The id first, as before the payload was kept.
  return Object.assign({ id: ship.id }, ship.fields, ship.owned, { id: ship.id, name: ship.name, createdAt: isoTime(ship.createdAt) });
}

/** The player resource (the spec does not show its fields): the mock's own, and the user's beside them. */
export function playerView(player: Player, rules: ActionPointRules, now: number) {
  refill(player.actionPoints, rules, now);
  const own = {
    id: player.id,
    email: player.email,
    emailVerified: player.emailVerified,
    createdAt: isoTime(player.createdAt),
    actionPoints: player.actionPoints.points,
    maxActionPoints: rules.max,
    ship: player.ship === null ? null : shipView(player.ship),
  };
  return player.fields === undefined ? own : Object.assign(own, player.fields);
}

/** Rules every gameplay action shares: no open fighter encounter, enough action points. Returns the cost. */
function gameplayCost(context: RequestContext, player: Player, routeId: string, allowedInEncounter = false): number {
  if (player.inEncounter && !allowedInEncounter) throw new ApiError(409, 'A fighter encounter must be resolved first');
  const cost = context.config.actionCosts[routeId] ?? 0;
  assertAffordable(player.actionPoints, cost, context.config.actionPoints, context.variants, context.now);
  return cost;
}

/** A ship name of at most MAX_SHIP_NAME_LENGTH characters, not only white space, stored trimmed. */
function shipName(body: JsonObject, field: string): string {
  const name = requiredString(body, field, MAX_SHIP_NAME_LENGTH).trim();
  if (name.length === 0) throw new ApiError(400, `${field} must not be empty`);
  return name;
}

/** The default reading, lenient as the spec is silent: `name`, else `shipName`, when it holds text; else a name is given. */
function givenShipName(body: JsonObject, shipId: string): string {
  for (const field of ['name', 'shipName']) {
    const value = body[field];
    if (typeof value === 'string' && value.trim().length > 0 && value.isWellFormed()) return value.trim();
  }
  return `Ship ${shipId.slice(0, 8)}`;
}

/** The public deployment's payload `{galaxyId, shipName}`, checked before the player's verification. */
function galaxyShipName(body: JsonObject): string {
  const galaxyId = body['galaxyId'];
  const validGalaxy =
    (typeof galaxyId === 'number' && Number.isSafeInteger(galaxyId) && galaxyId >= 0) || (typeof galaxyId === 'string' && /^[\w-]{1,64}$/.test(galaxyId));
  if (!validGalaxy) throw new ApiError(400, 'galaxyId is required: a galaxy number or id');
  return shipName(body, 'shipName');
}

/**
 * POST /api/player/ship: any JSON object, kept whole (as variants, `{galaxyId, shipName}` checked first, or a
 * strict `{name}`); one ship per player, and only for a verified player.
 */
export function createShip(context: RequestContext, player: Player, body: JsonObject) {
  const { variants, now } = context;
  const galaxyName = variants.has('ship-payload-galaxy') ? galaxyShipName(body) : undefined;
  if (!player.emailVerified) throw new ApiError(refusalStatus(variants, 'unverified-ship'), UNVERIFIED_SHIP_MESSAGE);
  const cost = gameplayCost(context, player, 'createShip');
  const id = randomToken();
  const name = galaxyName ?? (variants.has('ship-payload-name') ? shipName(body, 'name') : givenShipName(body, id));
  if (player.ship !== null) throw new ApiError(400, 'This player already has a ship');
  const ship: Ship = { id, name, createdAt: now, fields: { ...body } };
  const template = context.config.resources.ship;
  if (template !== undefined) {
    // Evaluated before the spend, so that a template refused (413) spends nothing; it reads the points as they end.
    const owner = { ...playerView(player, context.config.actionPoints, now), actionPoints: player.actionPoints.points - cost };
    ship.sequence = context.store.nextSequence('ship');
    ship.owned = templateFields('ship', template, { body, player: owner, now, counter: ship.sequence });
  }
  spend(player.actionPoints, cost, context.config.actionPoints, variants, now);
  player.ship = ship;
  return { success: true, ship: shipView(ship) } as const;
}

/** GET /api/player/ship, a read real clients make (the spec's table lists only the POST): the ship, or 404 before there is one. */
export function readShip(player: Player) {
  if (player.ship === null) throw new ApiError(404, NO_SHIP_MESSAGE);
  return { success: true, ship: shipView(player.ship) } as const;
}

/** A gameplay route of the user, before it runs: no open encounter (unless it resolves one), its cost and `extra` affordable. */
export function assertActionAllowed(context: RequestContext, player: Player, route: UserGameplayAction, extra = 0): void {
  const cost = gameplayCost(context, player, route.id, route.encounter === 'resolve');
  if (extra > 0) assertAffordable(player.actionPoints, cost + extra, context.config.actionPoints, context.variants, context.now);
}

/** A gameplay route of the user that answered with success: spends its cost and `extra`, and opens or closes its encounter. */
export function performAction(context: RequestContext, player: Player, route: UserGameplayAction, extra = 0): void {
  const cost = gameplayCost(context, player, route.id, route.encounter === 'resolve') + extra;
  const { config, variants, now } = context;
  assertAffordable(player.actionPoints, cost, config.actionPoints, variants, now);
  spend(player.actionPoints, cost, config.actionPoints, variants, now);
  if (route.encounter !== undefined) player.inEncounter = route.encounter === 'start';
}
