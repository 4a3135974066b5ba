import { specRoute } from '../../src/spec/routes.js';
import { type Exchange, isObject } from '../common/exchange.js';
import { answerTemplate, type EmailPlaceholders } from './answer-template.js';
import { POINTS_TEMPLATE } from './counters.js';
import { firstShip, MOCK_OWN_SHIP_FIELDS, type Ship, withoutSuccess } from './ship-state.js';
import { bearerToken, pathOf, type TrafficIdentities } from './traffic-identities.js';

const GET_PLAYER = specRoute('getPlayer');
/**
 * The fields of the player and of the ship the mock keeps itself (its documented player and ship views, the
 * ship's name from the creation body): it refuses a template that names them.
 */
export const PLAYER_FIELDS_OF_THE_MOCK: ReadonlySet<string> = new Set(['id', 'email', 'emailVerified', 'createdAt', 'actionPoints', 'maxActionPoints', 'ship']);

/**
 * The ship's fields as the `ship` template of the mock's config: what the server answered, each field that is
 * the creation payload's written as its placeholder (`hullName` ← `{{body.shipName}}`; a number only from a field
 * of its own name, as numbers coincide), so that a ship the client creates in a replay carries its own values.
 */
function shipTemplate(
  ship: Ship,
  payload: Readonly<Record<string, unknown>> | undefined,
  identities: TrafficIdentities,
  emails: EmailPlaceholders,
  token: string | undefined,
  counters: readonly string[],
) {
  const fromPayload: Record<string, string> = {};
  const literal: Record<string, unknown> = {};
  const fields = Object.entries(ship).filter(([field]) => !MOCK_OWN_SHIP_FIELDS.has(field));
  for (const [field, value] of fields) {
    if (counters.includes(field)) {
      fromPayload[field] = POINTS_TEMPLATE;
      continue;
    }
    const same = (name: string) => payload !== undefined && JSON.stringify(payload[name]) === JSON.stringify(value);
    const source = same(field) ? field : typeof value === 'string' ? Object.keys(payload ?? {}).find(same) : undefined;
    if (source !== undefined) fromPayload[field] = `{{body.${source}}}`;
    else literal[field] = value;
  }
  const player = token === undefined ? undefined : identities.players.get(token);
  const { response } = answerTemplate(literal, { params: [], tokens: identities.tokens, player, emails });
  return Object.fromEntries(fields.map(([field]) => [field, fromPayload[field] ?? response[field]]));
}

/** The player of the first successful GET /api/player: its `player` object, or the answer itself. */
function firstPlayer(exchanges: readonly Exchange[]): { player: Readonly<Record<string, unknown>>; token: string | undefined } | undefined {
  for (const exchange of exchanges) {
    if (exchange.method !== GET_PLAYER.method || pathOf(exchange) !== GET_PLAYER.path || exchange.status >= 400 || !isObject(exchange.body)) continue;
    const inner = exchange.body['player'];
    return { player: isObject(inner) ? inner : withoutSuccess(exchange.body), token: bearerToken(exchange) };
  }
  return undefined;
}

/** The fields of the ship and of the player that count the action points (counters.ts). */
export interface ResourceCounters {
  ship: readonly string[];
  player: readonly string[];
}

/** The recording's `ship` and `player` templates, from the ship and the player the server answered; their counters read the mock's points. */
export function resourceTemplates(
  exchanges: readonly Exchange[],
  identities: TrafficIdentities,
  emails: EmailPlaceholders,
  counters: ResourceCounters,
): { ship?: Record<string, unknown>; player?: Record<string, unknown> } {
  const templates: { ship?: Record<string, unknown>; player?: Record<string, unknown> } = {};
  const created = firstShip(exchanges);
  if (created !== undefined) {
    const token = exchanges.map((exchange) => bearerToken(exchange)).find((each) => each !== undefined);
    templates.ship = shipTemplate(created.ship, created.payload, identities, emails, token, counters.ship);
  }
  const read = firstPlayer(exchanges);
  if (read !== undefined) {
    const player = read.token === undefined ? undefined : identities.players.get(read.token);
    const fields = Object.fromEntries(Object.entries(read.player).filter(([field]) => !PLAYER_FIELDS_OF_THE_MOCK.has(field)));
    if (Object.keys(fields).length > 0) {
      const { response } = answerTemplate(fields, { params: [], tokens: identities.tokens, player, emails });
      for (const field of counters.player) if (Object.hasOwn(response, field)) response[field] = POINTS_TEMPLATE;
      templates.player = response;
    }
  }
  return templates;
}
