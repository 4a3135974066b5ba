import { bearerToken as tokenOf } from '../rules/bearer.js';
import { type RouteId, specRoute } from '../../src/spec/routes.js';
import { type Exchange, isObject } from '../target/exchange.js';

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

function requestJson(exchange: Exchange): unknown {
  try {
    return exchange.requestBody === undefined ? undefined : JSON.parse(exchange.requestBody);
  } catch {
    return undefined;
  }
}

const stringField = (value: unknown, key: string) => (isObject(value) && typeof value[key] === 'string' ? value[key] : undefined);

/** The email a successful verify-email signed in, and the token it answered. */
function signIn(exchange: Exchange): { token: string; email: string } | undefined {
  if (exchange.method !== 'POST' || pathOf(exchange) !== specPath('verifyEmail') || exchange.status >= 400) return undefined;
  const email = stringField(requestJson(exchange), 'email');
  const token = stringField(exchange.body, 'authToken');
  return email === undefined || token === undefined ? undefined : { token, email };
}

/** The player GET /api/player answered for a token (its `player` object, or the body itself). */
function playerRead(exchange: Exchange, token: string | undefined): { token: string; player: SignedInPlayer } | undefined {
  if (token === undefined || exchange.method !== 'GET' || pathOf(exchange) !== specPath('getPlayer') || exchange.status >= 400) return undefined;
  const body = isObject(exchange.body) && isObject(exchange.body['player']) ? exchange.body['player'] : exchange.body;
  const id = stringField(body, 'id');
  const email = stringField(body, 'email');
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
