import { describe, expect, it } from 'vitest';
import { createService } from '../service.js';
import { compileUserRoutes } from './compile-routes.js';
import type { UserRoute } from './user-route.js';

const problemsOf = (routes: UserRoute[]) =>
  compileUserRoutes(routes.map((route, index) => ({ route, at: `/routes/${index}` }))).problems.map(({ at, message }) => `${at} ${message}`);

describe('compileUserRoutes: every problem of a route list, by JSON Pointer', () => {
  it("accepts the routes of the docs, today's gameplay entries among them", () => {
    expect(
      problemsOf([
        { method: 'GET', path: '/api/galaxy/:galaxyId/sectors', response: { galaxyId: '{{params.galaxyId}}', current: '{{state.sector ?? 1}}' } },
        { method: 'POST', path: '/api/player/ship/move', category: 'gameplay', cost: 1, state: { sector: '{{body.sectorId}}' } },
        { method: 'POST', path: '/api/mine', response: { ore: 5 }, encounter: 'start' },
        { method: 'GET', path: '/api/news', category: 'public', status: '{{query.status ?? 200}}', response: { at: '{{now}}', text: 'from {{ query.who }}' } },
      ]),
    ).toEqual([]);
  });

  it('names paths outside /api/, bad segments, keys of another category, state on a public route and repeats', () => {
    expect(
      problemsOf([
        { method: 'GET', path: '/health/x' },
        { method: 'GET', path: '/api/a b' },
        { method: 'GET', path: '/api/:id/:id' },
        { method: 'GET', path: '/api/news', category: 'read', cost: 2, encounter: 'start' },
        { method: 'GET', path: '/api/open', category: 'public', state: { seen: true } },
        { method: 'POST', path: '/api/player/ship' },
        { method: 'GET', path: '/api/health' },
        { method: 'GET', path: '/api/galaxy/:a' },
        { method: 'GET', path: '/api/galaxy/:b' },
        { method: 'GET', path: '/api/ok', status: 99 },
      ]),
    ).toEqual([
      '/routes/0/path "/health/x" must start with /api/',
      '/routes/1/path "/api/a b" has the segment "a b"; a segment is path characters, or :name for a parameter',
      '/routes/2/path "/api/:id/:id" names the parameter id twice',
      "/routes/3/cost is for gameplay routes; this one's category is read",
      "/routes/3/encounter is for gameplay routes; this one's category is read",
      '/routes/4/state is kept per player, and a public route has no player',
      '/routes/5 POST /api/player/ship is the row "POST {base_url}/api/player/ship" (createShip) of the spec\'s Endpoints table, which the mock answers as the spec says; a route may add a method to its path, or replace a route the mock adds beyond the table (GET /api/player/ship), not a row of the table',
      '/routes/8 repeats GET /api/galaxy/:b (as GET /api/galaxy/:a)',
      '/routes/9/status 99 is not an HTTP status from 200 to 599',
    ]);
  });

  it('names templates that read an unknown root, a parameter the path lacks, the player on a public route, or a bad fallback', () => {
    expect(
      problemsOf([
        { method: 'GET', path: '/api/a/:id', response: { list: [{ x: '{{request.id}}' }], y: '{{params.name}}', z: 'n={{params.id ?? nope}}' } },
        { method: 'GET', path: '/api/b', category: 'public', response: { who: '{{player.email}}', s: '{{state.x}}' } },
        { method: 'GET', path: '/api/c', response: { bad: '{{ 1 + 2 }}' } },
      ]),
    ).toEqual([
      '/routes/0/response/list/0/x {{request.id}} refers to request, which no template can read; expected one of params, query, body, player, ship, state, now, counter',
      '/routes/0/response/y {{params.name}} reads the parameter name, but the path has :id',
      '/routes/0/response/z {{params.id ?? nope}} refers to nope, which no template can read; expected one of params, query, body, player, ship, state, now, counter',
      '/routes/1/response/who {{player.email}} reads player, which a public route does not have: it answers without a token',
      '/routes/1/response/s {{state.x}} reads state, which a public route does not have: it answers without a token',
      '/routes/2/response/bad {{ 1 + 2 }} is not a template expression; expected {{root.key…}} with optional ?? fallbacks, e.g. {{params.id}} or {{state.sector ?? 1}}',
    ]);
  });

  it('refuses keys a handler leaves unread', () => {
    expect(problemsOf([{ method: 'GET', path: '/api/h', handler: () => ({}), response: { a: 1 } }])).toEqual([
      "/routes/0/response is not read: the route's handler answers",
    ]);
  });

  it('makes createService throw every problem of its routes at once, a repeat included', () => {
    expect(() =>
      createService({
        version: '1.0.0',
        routes: [
          { method: 'POST', path: '/api/mine', category: 'gameplay' },
          { method: 'POST', path: '/api/mine' },
          { method: 'GET', path: 'x' },
        ],
      }),
    ).toThrow('routes/1 repeats POST /api/mine; routes/2/path "x" must start with /api/');
  });
});
