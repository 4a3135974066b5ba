import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { REDACTED_CODE } from './answer-template.js';
import { recordRoutes } from './record-routes.js';

const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';
const EMAIL = 'ada.pilot@studio.example';
let clock = 0;

/** An exchange as the proxy sees it, in the order sent. */
function exchange(
  method: string,
  path: string,
  { token = TOKEN, sent, status = 200, body }: { token?: string; sent?: unknown; status?: number; body?: unknown } = {},
): Exchange {
  clock += 2;
  return {
    method,
    url: `https://game.example${path}`,
    requestHeaders: token === '' ? {} : { authorization: `Bearer ${token}` },
    requestBody: sent === undefined ? undefined : JSON.stringify(sent),
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-limit': '100' },
    text: body === undefined ? '' : JSON.stringify(body),
    body,
    sentAt: clock - 1,
    receivedAt: clock,
  };
}

const SIGN_IN = [
  exchange('POST', '/api/auth/register', { token: '', sent: { email: EMAIL }, body: { success: true } }),
  exchange('POST', '/api/auth/verify-email', { token: '', sent: { email: EMAIL, otp: '481516' }, body: { success: true, authToken: TOKEN } }),
];

const sessionOf = (exchanges: Exchange[]) => recordRoutes([...SIGN_IN, ...exchanges]).config.session ?? [];

describe("the recording's session", () => {
  it('keeps every request of the client in order but its sign-in, each with the shape of its answer', () => {
    const session = sessionOf([
      exchange('GET', '/api/player', { body: { success: true, player: { id: 7, email: EMAIL, rank: 'cadet' } } }),
      exchange('GET', '/api/galaxy/1/sector?id=3', { body: { success: true, sector: { id: 3, name: 'Vega', ports: [{ name: 'Dock', fee: 2 }] } } }),
    ]);
    expect(session).toEqual([
      {
        method: 'GET',
        path: '/api/player',
        route: 'GET /api/player',
        auth: true,
        status: 200,
        contentType: 'application/json',
        headers: ['x-ratelimit-limit'],
        fields: { '': 'object', '/success': 'boolean', '/player': 'object', '/player/id': 'number', '/player/email': 'string', '/player/rank': 'string' },
      },
      {
        method: 'GET',
        path: '/api/galaxy/1/sector?id=3',
        route: 'GET /api/galaxy/:galaxyId/sector',
        auth: true,
        status: 200,
        contentType: 'application/json',
        headers: ['x-ratelimit-limit'],
        fields: {
          '': 'object',
          '/success': 'boolean',
          '/sector': 'object',
          '/sector/id': 'number',
          '/sector/name': 'string',
          '/sector/ports': 'array',
          '/sector/ports/*': 'object',
          '/sector/ports/*/name': 'string',
          '/sector/ports/*/fee': 'number',
        },
        follows: { '/sector/id': 'query.id | number' },
      },
    ]);
  });

  it("writes the ids a deployment gives each player as the answer that gave them, and leaves the world's as sent", () => {
    const session = sessionOf([
      exchange('GET', '/api/player', { body: { success: true, player: { id: 7, email: EMAIL } } }),
      exchange('POST', '/api/orders', { sent: { item: 'ore', galaxyId: 1 }, body: { success: true, order: { id: 'ord-5521' } } }),
      exchange('GET', '/api/players/7/orders/ord-5521', { body: { success: true } }),
      exchange('GET', '/api/galaxy/1/sectors', { body: { success: true, sectors: [{ id: 13, name: 'Sirius' }] } }),
      // 13 is a sector's id of a list; the player's own id 7, sent under its name, follows the deployment however small.
      exchange('POST', '/api/player/ship/move', { sent: { sectorId: 13, playerId: 7, times: 7 }, body: { success: true } }),
    ]);
    expect(session.map(({ method, path, body }) => `${method} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`)).toEqual([
      'GET /api/player',
      'POST /api/orders {"item":"ore","galaxyId":1}',
      'GET /api/players/{{answer 0 /player/id}}/orders/{{answer 1 /order/id}}',
      'GET /api/galaxy/1/sectors',
      'POST /api/player/ship/move {"sectorId":13,"playerId":"{{answer 0 /player/id}}","times":7}',
    ]);
  });

  it('writes down no token, code or address, and no field named by one, in requests or shapes', () => {
    const other = 'someone.else@mail.example';
    const session = sessionOf([
      exchange('POST', '/api/invite', { sent: { email: other, code: '123456', note: `for ${EMAIL}` }, body: { success: true, [other]: { id: 1 } } }),
      exchange('GET', `/api/sessions/${TOKEN}?token=${TOKEN}&who=${encodeURIComponent(EMAIL)}`, { body: { success: true } }),
    ]);
    const text = JSON.stringify(session);
    for (const secret of [TOKEN, EMAIL, other, '123456']) expect(text).not.toContain(secret);
    expect(session[0]!.body).toEqual({
      email: 'player1@example.com',
      code: REDACTED_CODE,
      note: 'for {{player.email}}'.replace('{{player.email}}', 'player2@example.com'),
    });
    expect(session[0]!.fields).toEqual({ '': 'object', '/success': 'boolean' });
    expect(session[1]!.path).toBe('/api/sessions/{{player.token}}?token={{player.token}}&who={{player.email}}');
  });

  it("keeps the headers the client set itself, its secrets as placeholders, and which of the recording's players sent each request", () => {
    const second = '9c8b7a6f-5e4d-4c3b-8a2f-1e0d9c8b7a6f';
    const session = sessionOf([
      {
        ...exchange('GET', '/api/player', { body: { success: true } }),
        requestHeaders: {
          authorization: `Bearer ${TOKEN}`,
          'x-client-version': '2.4',
          'x-api-key': TOKEN,
          accept: 'application/json',
          origin: 'https://game.example',
          'sec-fetch-mode': 'cors',
          'user-agent': 'Chromium',
          'x-game-service-run': '42',
        },
      },
      ...[
        exchange('POST', '/api/auth/register', { token: '', sent: { email: 'second@studio.example' }, body: { success: true } }),
        exchange('POST', '/api/auth/verify-email', {
          token: '',
          sent: { email: 'second@studio.example', otp: '111111' },
          body: { success: true, authToken: second },
        }),
      ],
      exchange('GET', '/api/player', { token: second, body: { success: true } }),
      exchange('GET', '/api/player', { body: { success: true } }),
    ]);
    expect(session[0]!.requestHeaders).toEqual({ 'x-client-version': '2.4', 'x-api-key': '{{player.token}}', accept: 'application/json' });
    expect(session.map((request) => request.player ?? 0)).toEqual([0, 1, 0]);
  });

  it('leaves out the sign-in, 401s and 429s, and notes a request whose body it cannot send', () => {
    const recording = recordRoutes([
      ...SIGN_IN,
      exchange('GET', '/api/player', { status: 401, body: { error: 'expired' } }),
      exchange('GET', '/api/player', { status: 429, body: { error: 'slow down' } }),
      { ...exchange('POST', '/api/upload', { body: { success: true } }), requestBody: 'a=1&b=2' },
    ]);
    expect(recording.config.session).toBeUndefined();
    expect(recording.notes).toContain('POST /api/upload: 1 left out of the session: its body is not JSON, and the session sends JSON bodies');
  });
});
