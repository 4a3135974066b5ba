import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { REDACTED_CODE, REDACTED_TOKEN, verbatim } from './answer-template.js';
import { RECORDED_CONFIG_SCHEMA, recordRoutes, writeRecordedRoutes } from './record-routes.js';

const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';
const OTHER_TOKEN = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const EMAIL = 'ada.pilot@studio.example';

let clock = 0;

interface Sent {
  token?: string;
  requestBody?: unknown;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An exchange as the proxy sees it, answered one millisecond after the one before. */
function exchange(method: string, path: string, { token, requestBody, status = 200, body, headers = {} }: Sent = {}): Exchange {
  clock += 2;
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    method,
    url: `https://game.example${path}`,
    requestHeaders: token === undefined ? {} : { Authorization: `Bearer ${token}` },
    requestBody: requestBody === undefined ? undefined : JSON.stringify(requestBody),
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text,
    body,
    sentAt: clock - 1,
    receivedAt: clock,
  };
}

const signIn = (token: string, email: string) => [
  exchange('POST', '/api/auth/register', { requestBody: { email }, body: { success: true, message: `code sent to ${email}` } }),
  exchange('POST', '/api/auth/verify-email', {
    requestBody: { email, otp: '481516' },
    body: { success: true, authToken: token, expiresAt: '2030-01-08T00:00:00Z' },
  }),
];

const routesOf = (exchanges: Exchange[]) => recordRoutes(exchanges).config.routes;

describe('path parameters', () => {
  it('makes a numeric segment a parameter named after the segment before it, and templates values equal to it, a number as a number', () => {
    const { config, notes } = recordRoutes([
      exchange('GET', '/api/galaxy/42/sectors?page=2', { token: TOKEN, body: { success: true, galaxyId: '42', sectors: [{ id: 42 }, { id: 43 }] } }),
    ]);
    expect(config.routes).toEqual([
      {
        method: 'GET',
        path: '/api/galaxy/:galaxyId/sectors',
        category: 'read',
        response: { galaxyId: '{{params.galaxyId}}', sectors: [{ id: '{{params.galaxyId | number}}' }, { id: 43 }] },
      },
    ]);
    expect(notes).toEqual([]);
  });

  it('recognises UUIDs, names two parameters apart, singularises naively and falls back to id, id2', () => {
    const fleet = '5b6c7d8e-1f2a-4b3c-9d4e-5f6a7b8c9d0e';
    const routes = routesOf([
      exchange('GET', `/api/fleets/${fleet}/ships/7`, { token: TOKEN, body: { success: true, fleet, ship: '7' } }),
      exchange('GET', '/api/galaxies/3/star-systems/12/planets', { token: TOKEN, body: { success: true } }),
      exchange('GET', '/api/42/7', { token: TOKEN, body: { success: true, first: '42', second: '7' } }),
      exchange('GET', '/api/ship/1/ship/2', { token: TOKEN, body: { success: true } }),
    ]);
    expect(routes.map((route) => route.path)).toEqual([
      '/api/fleets/:fleetId/ships/:shipId',
      '/api/galaxies/:galaxyId/star-systems/:starSystemId/planets',
      '/api/:id/:id2',
      '/api/ship/:shipId/ship/:id',
    ]);
    expect(routes[0]!.response).toEqual({ fleet: '{{params.fleetId}}', ship: '{{params.shipId}}' });
    expect(routes[2]!.response).toEqual({ first: '{{params.id}}', second: '{{params.id2}}' });
  });

  it('reads the path of a URL given as the path alone, as a proxy may see it', () => {
    const sent = exchange('GET', '/api/galaxy/9', { token: TOKEN, body: { success: true } });
    expect(routesOf([{ ...sent, url: '/api/galaxy/9?near=1' }]).map((route) => route.path)).toEqual(['/api/galaxy/:galaxyId']);
  });

  it('skips a path that cannot be a route path, and keeps literal segments as they were sent', () => {
    const { config, skipped } = recordRoutes([
      exchange('GET', '/api/sectors/', { token: TOKEN, body: { success: true } }),
      exchange('GET', '/api/sectors/near%20sol', { token: TOKEN, body: { success: true } }),
    ]);
    expect(skipped).toEqual([{ method: 'GET', path: '/api/sectors/', reason: 'its path has an empty segment, which no mock route has' }]);
    expect(config.routes.map((route) => route.path)).toEqual(['/api/sectors/near%20sol']);
  });
});

describe('merging recordings of one route', () => {
  it('gives one route for two parameters whose answers agree once templated, with no note', () => {
    const { config, notes } = recordRoutes([
      exchange('GET', '/api/galaxy/1/sectors', { token: TOKEN, body: { success: true, galaxyId: '1', names: ['Sol'] } }),
      exchange('GET', '/api/galaxy/2/sectors', { token: TOKEN, body: { success: true, galaxyId: '2', names: ['Sol'] } }),
    ]);
    expect(config.routes).toHaveLength(1);
    expect(config.routes[0]!.response).toEqual({ galaxyId: '{{params.galaxyId}}', names: ['Sol'] });
    expect(notes).toEqual([]);
  });

  it('replays answers that differ in the order they came, and says so', () => {
    const { config, notes } = recordRoutes([
      exchange('GET', '/api/galaxy/current/sectors', { token: TOKEN, body: { success: true, names: ['Sol'] } }),
      exchange('GET', '/api/galaxy/current/sectors', { token: TOKEN, body: { success: true, names: ['Vega'] } }),
    ]);
    expect(config.routes[0]!.answers).toEqual([{ response: { names: ['Sol'] } }, { response: { names: ['Vega'] } }]);
    expect(notes).toEqual(['GET /api/galaxy/current/sectors: 2 recordings answered 2 different ways: replayed as 2 answers to the same request, in order']);
  });

  it('replays answers to one path that differ in the order they came, an error in its place, its status with it', () => {
    const { config } = recordRoutes([
      exchange('GET', '/api/missions/current', { token: TOKEN, body: { success: true, mission: 'Escort' } }),
      exchange('GET', '/api/missions/current', { token: TOKEN, status: 404, body: { success: false, error: 'No mission now' } }),
    ]);
    expect(config.routes).toEqual([
      {
        method: 'GET',
        path: '/api/missions/current',
        category: 'read',
        answers: [{ response: { mission: 'Escort' } }, { status: 404, response: { success: false, error: 'No mission now' } }],
      },
    ]);
  });

  it('keeps apart the answers of a path parameter that selects them', () => {
    const { config } = recordRoutes([
      exchange('GET', '/api/missions/1', { token: TOKEN, body: { success: true, missionId: '1' } }),
      exchange('GET', '/api/missions/999', { token: TOKEN, status: 404, body: { success: false, error: 'No such mission' } }),
    ]);
    expect(config.routes).toEqual([
      {
        method: 'GET',
        path: '/api/missions/:missionId',
        category: 'read',
        answers: [
          { when: { params: { missionId: '1' } }, response: { missionId: '{{params.missionId}}' } },
          { when: { params: { missionId: '999' } }, status: 404, response: { success: false, error: 'No such mission' } },
        ],
      },
    ]);
  });
});

describe('a recording that replays the session', () => {
  const ship = (sector: number) => ({ id: 101, name: 'Rocinante', current_sector: sector, credits: 1000, galaxyId: 1, classId: 'scout' });
  const session = () => [
    ...signIn(TOKEN, EMAIL),
    exchange('GET', '/api/player', { token: TOKEN, body: { success: true, player: { id: 7, email: EMAIL, rank: 'cadet', ship: null } } }),
    exchange('POST', '/api/player/ship', {
      token: TOKEN,
      requestBody: { galaxyId: 1, shipName: 'Rocinante', classId: 'scout' },
      body: { success: true, ship: ship(1) },
      headers: { 'x-actionpoints-remaining': '59' },
    }),
    exchange('GET', '/api/galaxy/1/sector?id=1&_=1700000001', { token: TOKEN, body: { success: true, sector: { id: 1, name: 'Sol', port: 'Earth' } } }),
    exchange('POST', '/api/player/ship/move', {
      token: TOKEN,
      requestBody: { sectorId: 13 },
      body: { success: true, ship: ship(13) },
      headers: { 'x-actionpoints-remaining': '58' },
    }),
    exchange('GET', '/api/galaxy/1/sector?id=13&_=1700000002', { token: TOKEN, body: { success: true, sector: { id: 13, name: 'Sirius', port: null } } }),
    exchange('GET', '/api/galaxy/1/sector?id=1&_=1700000003', { token: TOKEN, body: { success: true, sector: { id: 1, name: 'Sol', port: 'Earth' } } }),
    exchange('POST', '/api/player/ship/move', {
      token: TOKEN,
      requestBody: { sectorId: 1 },
      body: { success: true, ship: ship(1) },
      headers: { 'x-actionpoints-remaining': '57' },
    }),
  ];

  it('keeps answers apart by the query parameter they echo, not by a nonce that changes on every call', () => {
    const sector = routesOf(session()).find((route) => route.path === '/api/galaxy/:galaxyId/sector')!;
    expect(sector.answers).toEqual([
      { when: { query: { id: '1' } }, response: { sector: { id: '{{query.id | number}}', name: 'Sol', port: 'Earth' } } },
      { when: { query: { id: '13' } }, response: { sector: { id: '{{query.id | number}}', name: 'Sirius', port: null } } },
    ]);
  });

  it('makes a gameplay request whose body field shows up in the ship a write of that field, and answers the ship as the mock holds it', () => {
    const move = routesOf(session()).find((route) => route.path === '/api/player/ship/move')!;
    expect(move).toEqual({
      method: 'POST',
      path: '/api/player/ship/move',
      category: 'gameplay',
      cost: 1,
      ship: { current_sector: '{{body.sectorId}}' },
      response: { ship: '{{ship}}' },
    });
  });

  it('reads what a move wrote from the ship read after it, when its own answer carries none', () => {
    const { config } = recordRoutes([
      ...signIn(TOKEN, EMAIL),
      exchange('GET', '/api/player/ship', { token: TOKEN, body: { success: true, ship: ship(1) } }),
      exchange('POST', '/api/ships/101/jump', { token: TOKEN, requestBody: { to: 3, fast: true, rename: 'Swift' }, body: { success: true, jumped: true } }),
      // The name is the mock's own to keep: a write of it would be refused, so none is recorded.
      exchange('GET', '/api/player/ship', { token: TOKEN, body: { success: true, ship: { ...ship(3), name: 'Swift' } } }),
    ]);
    expect(config.routes[0]).toMatchObject({ path: '/api/ships/:shipId/jump', response: { jumped: true } });
    expect(config.routes[0]!.ship).toEqual({ current_sector: '{{body.to}}' });
  });

  it("writes what the request sent as its template, in a literal body and in nested objects and arrays, and a part of the ship as the mock's", () => {
    const { config } = recordRoutes([
      ...signIn(TOKEN, EMAIL),
      exchange('POST', '/api/player/ship', { token: TOKEN, requestBody: { shipName: 'Rocinante' }, body: { success: true, ship: ship(1) } }),
      // The server's move answers part of the ship, without its id and without the envelope.
      exchange('POST', '/api/player/ship/move', {
        token: TOKEN,
        requestBody: { sectorId: 13 },
        body: { moved: true, ship: { current_sector: 13, credits: 1000, galaxyId: 1, classId: 'scout' }, log: [{ to: 13, at: 'now' }] },
      }),
    ]);
    expect(config.routes[0]).toEqual({
      method: 'POST',
      path: '/api/player/ship/move',
      category: 'gameplay',
      cost: 1,
      ship: { current_sector: '{{body.sectorId}}' },
      body: {
        moved: true,
        ship: { current_sector: '{{ship.current_sector}}', credits: '{{ship.credits}}', galaxyId: '{{ship.galaxyId}}', classId: '{{ship.classId}}' },
        log: [{ to: '{{body.sectorId}}', at: 'now' }],
      },
    });
  });

  it('templates a small value only where the field is named as the request value, or where it follows the request twice', () => {
    const routes = routesOf([
      exchange('GET', '/api/docks?port=1', { token: TOKEN, body: { success: true, port: 1, open: 1, busy: true } }),
      exchange('GET', '/api/level?n=2', { token: TOKEN, body: { success: true, level: 2, lives: 3 } }),
      exchange('GET', '/api/level?n=3', { token: TOKEN, body: { success: true, level: 3, lives: 3 } }),
      exchange('POST', '/api/flags', { token: TOKEN, requestBody: { busy: true, mode: 'x' }, body: { success: true, ok: true, mode: 'x' } }),
    ]);
    expect(routes.map((route) => route.response ?? route.answers)).toEqual([
      { port: '{{query.port | number}}', open: 1, busy: true },
      { level: '{{query.n | number}}', lives: 3 },
      { ok: true, mode: '{{body.mode}}' },
    ]);
  });

  it("makes the ship's and the player's counters of the action points read the mock's points, and gameplay write them", () => {
    const points = (left: number) => ({ 'x-actionpoints-remaining': String(left) });
    const counted = (sector: number, turns: number, left: number) => ({ ...ship(sector), turns, action_points: left });
    const { config } = recordRoutes([
      ...signIn(TOKEN, EMAIL),
      exchange('GET', '/api/player', { token: TOKEN, body: { success: true, player: { id: 7, actionPoints: 60, moves: 0, rank: 'cadet' } } }),
      exchange('POST', '/api/player/ship', {
        token: TOKEN,
        requestBody: { shipName: 'Rocinante' },
        body: { success: true, ship: counted(1, 80, 59) },
        headers: points(59),
      }),
      exchange('POST', '/api/player/ship/move', {
        token: TOKEN,
        requestBody: { sectorId: 13 },
        body: { success: true, ship: counted(13, 79, 58) },
        headers: points(58),
      }),
      exchange('GET', '/api/player/ship', { token: TOKEN, body: { success: true, ship: counted(13, 79, 58) } }),
      exchange('GET', '/api/player', { token: TOKEN, body: { success: true, player: { id: 7, actionPoints: 58, moves: 2, rank: 'cadet' } } }),
    ]);
    expect(config.ship).toMatchObject({ current_sector: 1, credits: 1000, turns: '{{player.actionPoints}}', action_points: '{{player.actionPoints}}' });
    // The player's moves rise: no counter of the points. Its rank never moves.
    expect(config.player).toEqual({ moves: 0, rank: 'cadet' });
    expect(config.routes[0]).toMatchObject({
      path: '/api/player/ship/move',
      ship: { current_sector: '{{body.sectorId}}', turns: '{{player.actionPoints}}', action_points: '{{player.actionPoints}}' },
      response: { ship: '{{ship}}' },
    });
  });

  it('makes the ship and the player the server answered the templates of the mock, the creation payload as placeholders', () => {
    const { config } = recordRoutes(session());
    // The ship's id and name are the mock's own (the name from the creation body).
    expect(config.ship).toEqual({
      current_sector: 1,
      credits: 1000,
      galaxyId: '{{body.galaxyId}}',
      classId: '{{body.classId}}',
    });
    // What the mock keeps live (the player's id, address and ship) is its own to show.
    expect(config.player).toEqual({ rank: 'cadet' });
  });

  it('replays one request answered differently over the session in order, keeping apart requests told apart by a body field', () => {
    const { config } = recordRoutes([
      exchange('GET', '/api/market', { token: TOKEN, body: { success: true, price: 10 } }),
      exchange('GET', '/api/market', { token: TOKEN, body: { success: true, price: 12 } }),
      exchange('GET', '/api/market', { token: TOKEN, body: { success: true, price: 12 } }),
      exchange('POST', '/api/trade', { token: TOKEN, requestBody: { side: 'buy', qty: 1 }, body: { success: true, bought: 1 } }),
      exchange('POST', '/api/trade', { token: TOKEN, requestBody: { side: 'sell', qty: 1 }, body: { success: true, sold: 1 } }),
      exchange('POST', '/api/trade', { token: TOKEN, requestBody: { side: 'buy', qty: 1 }, body: { success: true, bought: 1 } }),
    ]);
    expect(config.routes.map((route) => route.answers)).toEqual([
      [{ response: { price: 10 } }, { response: { price: 12 } }],
      [
        { when: { body: { side: 'buy' } }, response: { bought: 1 } },
        { when: { body: { side: 'sell' } }, response: { sold: 1 } },
      ],
    ]);
  });

  it('keeps answers apart by a path parameter that selects them, but never by the ship or player id', () => {
    const { config } = recordRoutes([
      ...signIn(TOKEN, EMAIL),
      exchange('POST', '/api/player/ship', { token: TOKEN, requestBody: { shipName: 'Nomad' }, body: { success: true, ship: ship(1) } }),
      exchange('GET', '/api/sectors/1', { token: TOKEN, body: { success: true, sector: { id: 1, name: 'Sol' } } }),
      exchange('GET', '/api/sectors/13', { token: TOKEN, body: { success: true, sector: { id: 13, name: 'Sirius' } } }),
      exchange('GET', '/api/sectors/1', { token: TOKEN, body: { success: true, sector: { id: 1, name: 'Sol' } } }),
      exchange('GET', '/api/ships/101/cargo', { token: TOKEN, body: { success: true, ship: 101, cargo: [] } }),
      exchange('GET', '/api/ships/101/cargo', { token: TOKEN, body: { success: true, ship: 101, cargo: ['ore'] } }),
      exchange('GET', '/api/galaxy/1/sectors', { token: TOKEN, body: { success: true, galaxyId: 1, names: ['Sol'] } }),
      exchange('GET', '/api/galaxy/2/sectors', { token: TOKEN, body: { success: true, galaxyId: 2, names: ['Sol'] } }),
    ]);
    expect(Object.fromEntries(config.routes.map((route) => [route.path, route.answers?.map((answer) => answer.when ?? 'in order')]))).toEqual({
      '/api/sectors/:sectorId': [{ params: { sectorId: '1' } }, { params: { sectorId: '13' } }],
      '/api/ships/:shipId/cargo': ['in order', 'in order'],
      // The galaxy's id, echoed under its own name, follows the request: one answer for every galaxy.
      '/api/galaxy/:galaxyId/sectors': undefined,
    });
    expect(config.routes.at(-1)!.response).toEqual({ galaxyId: '{{params.galaxyId | number}}', names: ['Sol'] });
  });

  it('never writes a token, code or address as a condition', () => {
    const { config } = recordRoutes([
      ...signIn(TOKEN, EMAIL),
      exchange('GET', `/api/inbox?token=${TOKEN}&page=1`, { token: TOKEN, body: { success: true, page: 1, items: ['a'] } }),
      exchange('GET', `/api/inbox?token=${OTHER_TOKEN}&page=2`, { token: TOKEN, body: { success: true, page: 2, items: ['b'] } }),
      exchange('POST', '/api/invite', { token: TOKEN, requestBody: { email: 'a@b.example', code: '123456' }, body: { success: true, n: 1 } }),
      exchange('POST', '/api/invite', { token: TOKEN, requestBody: { email: 'c@d.example', code: '654321' }, body: { success: true, n: 2 } }),
    ]);
    const text = JSON.stringify(config);
    for (const secret of [TOKEN, OTHER_TOKEN, 'a@b.example', '123456']) expect(text).not.toContain(secret);
    expect(config.routes[0]!.answers![0]!.when).toEqual({ query: { page: '1' } });
  });
});

describe('category and cost', () => {
  it('reads a GET with a bearer token, plays any other method with one, and makes a route without one public', () => {
    const routes = routesOf([
      exchange('GET', '/api/player/stats', { token: TOKEN, body: { success: true } }),
      exchange('DELETE', '/api/player/ship/cargo', { token: TOKEN, body: { success: true } }),
      exchange('GET', '/api/leaderboard', { body: { success: true } }),
      exchange('POST', '/api/feedback', { body: { success: true } }),
    ]);
    expect(routes.map(({ method, path, category }) => `${category} ${method} ${path}`)).toEqual([
      'read GET /api/player/stats',
      'gameplay DELETE /api/player/ship/cargo',
      'public GET /api/leaderboard',
      'public POST /api/feedback',
    ]);
  });

  it('makes a route public when it answered a request without a token, though another request sent one', () => {
    const { config, notes } = recordRoutes([
      exchange('GET', '/api/news', { token: TOKEN, body: { success: true } }),
      exchange('GET', '/api/news', { body: { success: true } }),
    ]);
    expect(config.routes[0]!.category).toBe('public');
    expect(notes).toEqual(['GET /api/news: answered without a token: recorded as public']);
  });

  it('costs the drop in X-ActionPoints-Remaining since the same player’s previous answer', () => {
    const points = (left: number) => ({ 'x-actionpoints-remaining': String(left) });
    const { config, notes } = recordRoutes([
      exchange('GET', '/api/player', { token: TOKEN, body: { success: true, player: { actionPoints: 60 } } }),
      exchange('POST', '/api/mine', { token: TOKEN, body: { success: true, ore: 5 }, headers: points(57) }),
      exchange('POST', '/api/other-players-mine', { token: OTHER_TOKEN, body: { success: true }, headers: points(59) }),
      exchange('POST', '/api/mine', { token: TOKEN, body: { success: true, ore: 5 }, headers: points(54) }),
    ]);
    expect(config.routes[0]).toMatchObject({ path: '/api/mine', category: 'gameplay', cost: 3 });
    // The other player's first answer shows no drop: nothing before it says what it held.
    expect(config.routes[1]).toMatchObject({ path: '/api/other-players-mine', cost: 1 });
    expect(notes).toEqual(['POST /api/other-players-mine: costs 1 action point: no answer showed the points it spent']);
  });
});

describe('status and envelope', () => {
  it('records a status other than 200, an error answer whole, and an answer without the envelope as its whole body', () => {
    const { config, notes } = recordRoutes([
      exchange('POST', '/api/fleet', { token: TOKEN, status: 201, body: { success: true, fleetId: 'f-1' } }),
      exchange('POST', '/api/warp', { token: TOKEN, status: 403, body: { success: false, error: 'Not in the required sector', sector: 4 } }),
      exchange('GET', '/api/bare', { token: TOKEN, body: { value: 1 } }),
      exchange('GET', '/api/broken', { token: TOKEN, status: 500, body: { message: 'boom' } }),
      exchange('DELETE', '/api/fleet/f-1/orders', { token: TOKEN, status: 204 }),
    ]);
    expect(config.routes).toEqual([
      { method: 'POST', path: '/api/fleet', category: 'gameplay', cost: 1, status: 201, response: { fleetId: 'f-1' } },
      {
        method: 'POST',
        path: '/api/warp',
        category: 'gameplay',
        cost: 1,
        status: 403,
        response: { success: false, error: 'Not in the required sector', sector: 4 },
      },
      { method: 'GET', path: '/api/bare', category: 'read', body: { value: 1 } },
      { method: 'GET', path: '/api/broken', category: 'read', status: 500, body: { message: 'boom' } },
      { method: 'DELETE', path: '/api/fleet/f-1/orders', category: 'gameplay', cost: 1, status: 204, response: {} },
    ]);
    // An answer the mock's envelope would change is kept whole, as `body`: replayed as it was answered.
    expect(notes.filter((note) => !note.includes('costs 1'))).toEqual([]);
  });
});

describe('redaction', () => {
  const secrets = [TOKEN, OTHER_TOKEN, EMAIL, 'someone.else@mail.example', '481516', '271828', '314159', '265358'];

  it('writes no token, email address or code, whatever field or path they are in', () => {
    const recording = recordRoutes([
      ...signIn(TOKEN, EMAIL),
      exchange('GET', '/api/player/profile', {
        token: TOKEN,
        body: {
          success: true,
          email: EMAIL,
          greeting: `Welcome back, ${EMAIL}!`,
          friends: [{ email: 'someone.else@mail.example' }],
          session: { refreshToken: 'opaque-refresh-value', header: `Bearer ${TOKEN}` },
          otp: '271828',
          verificationCode: '481516',
          recoveryCodes: ['314159', '265358'],
          [EMAIL]: 'keyed by address',
        },
      }),
      exchange('GET', `/api/lookup/${encodeURIComponent('someone.else@mail.example')}`, { body: { success: true, found: 'someone.else@mail.example' } }),
      exchange('GET', `/api/sessions/${OTHER_TOKEN}`, { token: OTHER_TOKEN, body: { success: true, token: OTHER_TOKEN } }),
    ]);
    const written = JSON.stringify(recording.config);
    for (const secret of [...secrets, 'opaque-refresh-value']) expect(written).not.toContain(secret);
    expect(recording.config.routes[0]!.response).toEqual({
      email: '{{player.email}}',
      greeting: 'Welcome back, {{player.email}}!',
      friends: [{ email: 'player1@example.com' }],
      session: { refreshToken: REDACTED_TOKEN, header: `Bearer ${REDACTED_TOKEN}` },
      otp: REDACTED_CODE,
      verificationCode: REDACTED_CODE,
      recoveryCodes: [REDACTED_CODE, REDACTED_CODE],
      'player2@example.com': 'keyed by address',
    });
    expect(recording.config.routes.slice(1).map(({ path, response }) => ({ path, response }))).toEqual([
      { path: '/api/lookup/:lookupId', response: { found: '{{params.lookupId}}' } },
      { path: '/api/sessions/:sessionId', response: { token: '{{params.sessionId}}' } },
    ]);
  });

  it('gives a placeholder, not the player, for an address the traffic did not sign in with, and on a public route', () => {
    const routes = routesOf([
      ...signIn(TOKEN, EMAIL),
      exchange('GET', '/api/contact', { token: OTHER_TOKEN, body: { success: true, email: EMAIL } }),
      exchange('GET', '/api/public-profile', { body: { success: true, email: EMAIL } }),
    ]);
    expect(routes.map((route) => route.response)).toEqual([{ email: 'player1@example.com' }, { email: 'player1@example.com' }]);
  });

  it("templates the signed-in player's id, as GET /api/player showed it", () => {
    const id = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
    const routes = routesOf([
      exchange('GET', '/api/player', { token: TOKEN, body: { success: true, player: { id, email: EMAIL } } }),
      exchange('GET', '/api/player/stats', { token: TOKEN, body: { success: true, playerId: id, owner: EMAIL } }),
    ]);
    expect(routes).toEqual([
      { method: 'GET', path: '/api/player/stats', category: 'read', response: { playerId: '{{player.id}}', owner: '{{player.email}}' } },
    ]);
  });
});

describe('skipped exchanges', () => {
  it("skips the spec's routes, the mock's own, the control API, paths outside /api/ and answers the mock makes itself, saying why", () => {
    const { config, skipped } = recordRoutes([
      exchange('GET', '/health', { body: { status: 'ok' } }),
      ...signIn(TOKEN, EMAIL),
      exchange('GET', '/api/player', { token: TOKEN, body: { success: true } }),
      exchange('POST', '/api/player/ship', { token: TOKEN, body: { success: true } }),
      exchange('GET', '/api/player/ship', { token: TOKEN, body: { success: true } }),
      exchange('GET', '/__mock/journal', { body: { entries: [] } }),
      exchange('GET', '/assets/app.js'),
      exchange('OPTIONS', '/api/stats'),
      exchange('GET', '/api/stats', { status: 401, body: { success: false, error: 'Unauthorized' } }),
      exchange('GET', '/api/stats', { token: TOKEN, status: 429, body: { success: false, error: 'Too many requests' } }),
      exchange('GET', '/api/stats.txt', { token: TOKEN, body: 'plain' }),
      exchange('DELETE', '/api/player/ship', { token: TOKEN, body: { success: true } }),
    ]);
    expect(skipped.map(({ method, path, reason }) => `${method} ${path}: ${reason}`)).toEqual([
      "GET /health: a route of the spec's table, which the mock answers itself",
      "POST /api/auth/register: a route of the spec's table, which the mock answers itself",
      "POST /api/auth/verify-email: a route of the spec's table, which the mock answers itself",
      "GET /api/player: a route of the spec's table, which the mock answers itself",
      "POST /api/player/ship: a route of the spec's table, which the mock answers itself",
      'GET /api/player/ship: a route the mock serves itself',
      "GET /__mock/journal: the mock's control API (/__mock), which every mock serves itself",
      'GET /assets/app.js: not under /api/, where every route of a mock config is',
      'OPTIONS /api/stats: OPTIONS is not a method of a mock route (GET, POST, PUT, PATCH, DELETE)',
      'GET /api/stats: answered 401: the mock checks tokens itself',
      'GET /api/stats: answered 429: the mock counts its own rate limits',
      'GET /api/stats.txt: its answer is not a JSON object, and a mock route answers one',
    ]);
    // A spec path with a method of its own is a route of the user.
    expect(config.routes.map(({ method, path }) => `${method} ${path}`)).toEqual(['DELETE /api/player/ship']);
  });
});

describe('text that reads as a template', () => {
  it('keeps a recorded string holding {{ verbatim, alone or next to a template', () => {
    const routes = routesOf([
      exchange('GET', '/api/help/7', {
        token: TOKEN,
        body: { success: true, hint: 'write {{params.id}} in a template', mixed: 'galaxy {{7}} and {', plain: 'a { b } c', id: '7' },
      }),
    ]);
    expect(routes[0]!.response).toEqual({
      hint: verbatim('write {{params.id}} in a template'),
      mixed: verbatim('galaxy {{7}} and {'),
      plain: 'a { b } c',
      id: '{{params.helpId}}',
    });
  });

  it('writes the text as the JSON fallback of a placeholder that reaches nothing, with no }} to end it early', () => {
    const text = 'a {{b}} c }} "quoted"\n\u2028 done';
    const escaped = verbatim(text);
    const [, fallback = ''] = /^\{\{now\.verbatim \?\? (.*)\}\}$/s.exec(escaped) ?? [];
    expect(fallback).not.toMatch(/[{}\n\u2028\u2029]/);
    expect(JSON.parse(fallback)).toBe(text);
  });
});

describe('the file', () => {
  it('points $schema at the published schema, or leaves it out, and is written as JSON with two spaces', async () => {
    const recorded = recordRoutes([exchange('GET', '/api/stats', { token: TOKEN, body: { success: true, kills: 3 } })]);
    expect(recorded.config.$schema).toBe(RECORDED_CONFIG_SCHEMA);
    expect(recordRoutes([], { schema: null }).config).toEqual({ routes: [] });
    const dir = mkdtempSync(join(tmpdir(), 'record-routes-'));
    try {
      const file = join(dir, 'mock.json');
      await writeRecordedRoutes(file, recorded.config);
      const text = readFileSync(file, 'utf8');
      expect(text).toBe(`${JSON.stringify(recorded.config, null, 2)}\n`);
      expect(text).toContain('\n  "routes": [\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
