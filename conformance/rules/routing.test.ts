import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { judgeExchange } from './index.js';

const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';

/** The server's departures in a 404 error envelope to `method path`, as the proxy sees it. */
function notFound(method: string, path: string, token?: string) {
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const exchange: Exchange = {
    method,
    url: `https://game.example${path}`,
    requestHeaders: headers,
    requestBody: undefined,
    status: 404,
    headers: { 'content-type': 'application/json' },
    text: '{"error":"Not found"}',
    body: { error: 'Not found' },
    sentAt: 1,
    receivedAt: 2,
  };
  return judgeExchange(exchange, { path, external: false, serverTime: { fromMs: 1, toMs: 2 } }).filter(
    (verdict) => verdict.side === 'server' && !verdict.holds,
  );
}

describe('ERR-405 in live traffic', () => {
  it('names a 404 to a method the table does not list on a path that needs no token', () => {
    expect(notFound('PUT', '/health').map((departure) => departure.rule)).toEqual(['ERR-405']);
    expect(notFound('GET', '/api/auth/register').map((departure) => departure.rule)).toEqual(['ERR-405']);
  });

  it("leaves a player's path alone: another method there may be an endpoint beyond the table, whose 404 is the player's resource not found", () => {
    // GET /api/player/ship before the player has a ship: the mock's own route, and the example client's first call.
    expect(notFound('GET', '/api/player/ship', TOKEN)).toEqual([]);
    expect(notFound('DELETE', '/api/player', TOKEN)).toEqual([]);
  });
});
