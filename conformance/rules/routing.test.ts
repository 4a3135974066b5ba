import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { judgeExchange } from './index.js';

const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';

/** The server's departures in an answer `status` with the JSON `body` to `method path`, as the proxy sees it. */
function departuresOf(method: string, path: string, status: number, body: unknown, token?: string) {
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const exchange: Exchange = {
    method,
    url: `https://game.example${path}`,
    requestHeaders: headers,
    requestBody: undefined,
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
    sentAt: 1,
    receivedAt: 2,
  };
  return judgeExchange(exchange, { path, external: false, serverTime: { fromMs: 1, toMs: 2 } }).filter(
    (verdict) => verdict.side === 'server' && !verdict.holds,
  );
}

const notFound = (method: string, path: string, token?: string) => departuresOf(method, path, 404, { error: 'Not found' }, token);
const rulesOf = (departures: readonly { rule: string }[]) => departures.map((departure) => departure.rule);

describe('ERR-405 in live traffic', () => {
  it('names a 404 to a method the table does not list on a path that needs no token', () => {
    expect(rulesOf(notFound('PUT', '/health'))).toEqual(['ERR-405']);
    expect(rulesOf(notFound('GET', '/api/auth/register'))).toEqual(['ERR-405']);
  });

  it("leaves a player's path alone: another method there may be an endpoint beyond the table, whose 404 is the player's resource not found", () => {
    // GET /api/player/ship before the player has a ship: the mock's own route, and the example client's first call.
    expect(notFound('GET', '/api/player/ship', TOKEN)).toEqual([]);
    expect(notFound('DELETE', '/api/player', TOKEN)).toEqual([]);
  });

  it("takes a refusal of the parameters as an endpoint beyond the table: GET /api/auth/verify-email for an e-mail's link, without its query", () => {
    expect(departuresOf('GET', '/api/auth/verify-email', 400, { error: 'email and otp are required' })).toEqual([]);
    expect(departuresOf('PUT', '/api/auth/register', 422, { error: 'email must be a string' })).toEqual([]);
    expect(departuresOf('DELETE', '/health', 200, { success: true })).toEqual([]);
  });

  it('names a refusal that is of the method or the route, not of parameters, or that is no error envelope, whatever its status', () => {
    expect(rulesOf(departuresOf('GET', '/api/auth/verify-email', 400, { error: 'Method not allowed' }))).toEqual(['ERR-405']);
    expect(rulesOf(departuresOf('PATCH', '/health', 400, { error: 'Cannot PATCH /health' }))).toEqual(['ERR-405']);
    expect(rulesOf(departuresOf('PUT', '/api/auth/register', 400, { message: 'Bad request' }))).toContain('ERR-405');
    expect(rulesOf(departuresOf('DELETE', '/api/auth/verify-email', 500, { error: 'Internal server error' }))).toEqual(['ERR-405']);
    expect(rulesOf(departuresOf('GET', '/api/auth/register', 403, { error: 'Forbidden' }))).toEqual(['ERR-405']);
  });
});
