import { MOCK_ROUTES, specRoute } from '../../src/spec/routes.js';
import { isSuccess } from '../rules/envelope.js';
import { type Exchange, isObject, parsedJson } from '../common/exchange.js';
import { bearerToken, pathOf } from './traffic-identities.js';

/**
 * What the traffic showed of each player's ship, exchange by exchange: the ship a server answers (the `ship`
 * object of an answer, as GET and POST /api/player/ship and gameplay answer it), so that a recording can make
 * the ship a template of the mock's, and tell which fields a gameplay request wrote from its body.
 */

export type Ship = Readonly<Record<string, unknown>>;

/** The fields of a ship the mock keeps itself (its id, its name from the creation body, createdAt): no template or write may name them. */
export const MOCK_OWN_SHIP_FIELDS: ReadonlySet<string> = new Set(['id', 'name', 'createdAt']);

const SHIP_PATH = MOCK_ROUTES.find((route) => route.id === 'getShip')!.path;
const CREATE_SHIP = specRoute('createShip');

/** A success body's own fields: all but the envelope's `success`. */
export const withoutSuccess = ({ success: _success, ...fields }: Readonly<Record<string, unknown>>): Record<string, unknown> => fields;

/** The ship an answer carries: its `ship` object; the body itself on the ship's own path. */
export function answeredShip(exchange: Exchange): Ship | undefined {
  if (!isSuccess(exchange) || !isObject(exchange.body)) return undefined;
  const ship = exchange.body['ship'];
  if (isObject(ship)) return ship;
  if (pathOf(exchange) !== SHIP_PATH) return undefined;
  const fields = withoutSuccess(exchange.body);
  return Object.keys(fields).length > 0 ? fields : undefined;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Each exchange of a signed-in player with the ship that player held before it, as far as the traffic showed one. */
export function shipsBefore(exchanges: readonly Exchange[]): Map<Exchange, Ship> {
  const held = new Map<string, Ship>();
  const before = new Map<Exchange, Ship>();
  for (const exchange of exchanges) {
    const token = bearerToken(exchange);
    if (token === undefined) continue;
    const ship = held.get(token);
    if (ship !== undefined) before.set(exchange, ship);
    const answered = answeredShip(exchange);
    // Another object called ship (another player's, a ship for sale) is not this player's: its id differs. Part of
    // the ship, without its id (a move's answer), changes the fields it holds.
    if (answered !== undefined && ship !== undefined && answered['id'] === undefined) held.set(token, { ...ship, ...answered });
    else if (answered !== undefined && (ship === undefined || ship['id'] === undefined || sameJson(ship['id'], answered['id']))) held.set(token, answered);
  }
  return before;
}

/**
 * Each gameplay request (not a GET) of a signed-in player with the ship after it: the one its answer carries,
 * else the next one answered to that player before another of its requests that is not a GET (a move answered
 * `{success: true}`, then GET /api/player/ship).
 */
export function shipsAfter(exchanges: readonly Exchange[]): Map<Exchange, Ship> {
  const after = new Map<Exchange, Ship>();
  const waiting = new Map<string, Exchange>();
  for (const exchange of exchanges) {
    const token = bearerToken(exchange);
    if (token === undefined) continue;
    const answered = answeredShip(exchange);
    const write = exchange.method !== 'GET';
    if (write) waiting.delete(token);
    const pending = waiting.get(token);
    if (answered !== undefined && pending !== undefined) {
      after.set(pending, answered);
      waiting.delete(token);
    }
    if (!write || exchange.status >= 400) continue;
    if (answered !== undefined) after.set(exchange, answered);
    else waiting.set(token, exchange);
  }
  return after;
}

/** The request's JSON body, when it is an object. */
export function requestFields(exchange: Exchange): Readonly<Record<string, unknown>> | undefined {
  const body = parsedJson(exchange.requestBody);
  return isObject(body) ? body : undefined;
}

/**
 * The ship fields a request wrote from its body: each field of the answered ship that changed from the ship
 * before to a value that one field of the request's body holds (`{sectorId: 2}` → `current_sector: 2`).
 */
export function fieldsWritten(before: Ship | undefined, after: Ship | undefined, body: Readonly<Record<string, unknown>> | undefined): Map<string, string> {
  const written = new Map<string, string>();
  if (before === undefined || after === undefined || body === undefined) return written;
  for (const [field, value] of Object.entries(after)) {
    if (MOCK_OWN_SHIP_FIELDS.has(field) || sameJson(before[field], value)) continue;
    const sources = Object.keys(body).filter((name) => sameJson(body[name], value));
    if (sources.length === 1) written.set(field, sources[0]!);
  }
  return written;
}

/** The first ship answered to a creation (POST /api/player/ship), with the payload it was created from; else the first ship answered at all. */
export function firstShip(exchanges: readonly Exchange[]): { ship: Ship; payload: Readonly<Record<string, unknown>> | undefined } | undefined {
  for (const exchange of exchanges) {
    if (exchange.method !== CREATE_SHIP.method || pathOf(exchange) !== CREATE_SHIP.path) continue;
    const ship = answeredShip(exchange);
    if (ship !== undefined) return { ship, payload: requestFields(exchange) };
  }
  for (const exchange of exchanges) {
    const ship = exchange.method === 'GET' && pathOf(exchange) === SHIP_PATH ? answeredShip(exchange) : undefined;
    if (ship !== undefined) return { ship, payload: undefined };
  }
  return undefined;
}
