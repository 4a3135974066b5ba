import { bearerToken as tokenOf } from '../rules/bearer.js';
import { type RouteId, specRoute } from '../../src/spec/routes.js';
import { type Exchange, isObject, issuedToken, parsedJson, stringField } from '../common/exchange.js';

/** What the traffic showed of the player behind a token: the email it signed in with, its id. */
export interface SignedInPlayer {
  email?: string;
  id?: string;
}

/** The secrets and players the traffic showed, so that a recording writes none of them down. */
export interface TrafficIdentities {
  /** Every bearer token sent, and every token a body answered. */
  tokens: ReadonlySet<string>;
  players: ReadonlyMap<string, SignedInPlayer>;
}

/** A field whose string value is a token: `authToken`, `token`, `refresh_token`, `tokens`. */
export const TOKEN_FIELD = /tokens?$/i;

const specPath = (id: RouteId) => specRoute(id).path;

/** The path of the request, whether its URL is absolute or, as a proxy may see it, the path alone. */
export function pathOf(exchange: Exchange): string {
  return new URL(exchange.url, 'http://path.invalid').pathname;
}

/** The bearer token of the request, whatever the case of its header's name. */
export function bearerToken(exchange: Exchange): string | undefined {
  return tokenOf(exchange.requestHeaders);
}

/** The strings of token fields, at any depth, the items of an array named by its key. */
function answeredTokens(value: unknown, named: boolean, found: Set<string>): void {
  if (typeof value === 'string' && named && value !== '') found.add(value);
  else if (Array.isArray(value)) for (const item of value) answeredTokens(item, named, found);
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) answeredTokens(item, TOKEN_FIELD.test(key), found);
}

/** The email a successful verify-email signed in, and the token it answered. */
function signIn(exchange: Exchange): { token: string; email: string } | undefined {
  if (exchange.method !== 'POST' || pathOf(exchange) !== specPath('verifyEmail') || exchange.status >= 400) return undefined;
  const email = stringField(parsedJson(exchange.requestBody), 'email');
  const token = issuedToken(exchange);
  return email === undefined || token === undefined ? undefined : { token, email };
}

/**
 * The player a successful GET /api/player answered: its `player` object, or the body itself; {} when that is no object
 * (the answer was still a read of the player). Undefined for any other exchange.
 */
export function answeredPlayer(exchange: Exchange): Record<string, unknown> | undefined {
  if (exchange.method !== 'GET' || pathOf(exchange) !== specPath('getPlayer') || exchange.status >= 400) return undefined;
  const player = isObject(exchange.body) && isObject(exchange.body['player']) ? exchange.body['player'] : exchange.body;
  return isObject(player) ? player : {};
}

/** The player GET /api/player answered for a token. */
function playerRead(exchange: Exchange, token: string | undefined): { token: string; player: SignedInPlayer } | undefined {
  // No token, no read to remember: the answer is not even looked at (pathOf may throw on a malformed URL).
  if (token === undefined) return undefined;
  const player = answeredPlayer(exchange);
  if (player === undefined) return undefined;
  const id = stringField(player, 'id');
  const email = stringField(player, 'email');
  return { token, player: { ...(id === undefined ? {} : { id }), ...(email === undefined ? {} : { email }) } };
}

export function trafficIdentities(exchanges: readonly Exchange[]): TrafficIdentities {
  const tokens = new Set<string>();
  const players = new Map<string, SignedInPlayer>();
  for (const exchange of exchanges) {
    const token = bearerToken(exchange);
    if (token !== undefined) tokens.add(token);
    answeredTokens(exchange.body, false, tokens);
    const signedIn = signIn(exchange);
    if (signedIn !== undefined) players.set(signedIn.token, { ...players.get(signedIn.token), email: signedIn.email });
    const read = playerRead(exchange, token);
    if (read !== undefined) players.set(read.token, { ...players.get(read.token), ...read.player });
  }
  return { tokens, players };
}
