import { describe, expect, it } from 'vitest';
import { CoreHarness, GAME_ORIGIN } from '../../../test/support/core-harness.js';
import type { ServiceOptions } from '../options.js';
import { MAX_ROUTE_STATE_BYTES, type UserRoute } from './user-route.js';

const SECTORS: UserRoute = {
  method: 'GET',
  path: '/api/galaxy/:galaxyId/sectors',
  response: {
    galaxyId: '{{params.galaxyId}}',
    view: '{{query.view ?? "map"}}',
    current: '{{state.sector ?? 1}}',
    label: 'sector {{state.sector ?? 1}} of {{params.galaxyId}}',
  },
};
const MOVE: UserRoute = {
  method: 'POST',
  path: '/api/player/ship/move',
  state: { sector: '{{body.sectorId}}' },
  response: { sector: '{{state.sector}}', left: '{{player.actionPoints}}' },
};
const NEWS: UserRoute = { method: 'GET', path: '/api/news', category: 'public', response: { at: '{{now}}' } };

function harness(options: Partial<ServiceOptions> = {}) {
  return new CoreHarness({ routes: [SECTORS, MOVE, NEWS], ...options });
}

/** A request with a query string, which CoreHarness does not send. */
function get(core: CoreHarness, path: string, query: string, token?: string) {
  return core.service.handle({ method: 'GET', path, query, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, ip: '203.0.113.9' });
}

const journaled = (core: CoreHarness) => core.service.journal.latest(1)[0]!;

describe('routes of your own, by category', () => {
  it('reads: a bearer token, the read bucket of the player, no action-point headers; params, query and fallbacks filled in', async () => {
    const core = harness();
    const token = await core.signIn('pilot@example.com');
    expect((await get(core, '/api/galaxy/1/sectors', '')).status).toBe(401);
    const read = await get(core, '/api/galaxy/1/sectors', 'view=list', token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ success: true, galaxyId: '1', view: 'list', current: 1, label: 'sector 1 of 1' });
    expect(read.headers['x-ratelimit-remaining']).toBe('59');
    expect(read.headers['x-actionpoints-remaining']).toBeUndefined();
    expect(journaled(core)).toMatchObject({ category: 'read', path: '/api/galaxy/1/sectors' });
  });

  it('gameplay: spends its cost, sends X-ActionPoints-Remaining, keeps what the body gave for a later read', async () => {
    const core = harness({ actionCosts: { 'POST /api/player/ship/move': 2 } });
    const token = await core.signIn('pilot@example.com');
    const moved = await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 7 } });
    expect(moved).toMatchObject({ status: 200, body: { success: true, sector: 7, left: 58 } });
    expect(moved.headers['x-actionpoints-remaining']).toBe('58');
    expect(journaled(core).category).toBe('gameplay');
    expect((await get(core, '/api/galaxy/9/sectors', '', token)).body).toMatchObject({ current: 7, label: 'sector 7 of 9' });
    const other = await core.signIn('other@example.com');
    expect((await get(core, '/api/galaxy/9/sectors', '', other)).body).toMatchObject({ current: 1 });
  });

  it('public: no token, the public bucket of the IP, the clock in {{now}}', async () => {
    const core = harness();
    const news = await core.call('GET', '/api/news');
    expect(news).toMatchObject({ status: 200, body: { success: true, at: '2026-11-21T10:00:00.000Z' } });
    expect(news.headers['x-ratelimit-limit']).toBe('60');
    expect(journaled(core)).toMatchObject({ category: 'public', playerId: null });
  });

  it('exempts game origins from the buckets of every category, and still sends the points of gameplay', async () => {
    const core = harness();
    const token = await core.signIn('pilot@example.com');
    for (const [method, path, body] of [
      ['GET', '/api/news'],
      ['GET', '/api/galaxy/1/sectors'],
      ['POST', '/api/player/ship/move', { sectorId: 2 }],
    ] as const) {
      const external = await core.call(method, path, { token, body });
      const game = await core.call(method, path, { token, body, origin: GAME_ORIGIN });
      expect(external.headers['x-ratelimit-remaining'], path).toBeDefined();
      expect(game.headers['x-ratelimit-remaining'], path).toBeUndefined();
    }
    const moved = await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 3 }, origin: GAME_ORIGIN });
    expect(moved.headers['x-actionpoints-remaining']).toBe('57');
  });

  it('answers 429 once the category bucket is spent', async () => {
    const core = harness();
    const token = await core.signIn('pilot@example.com');
    for (let index = 0; index < 60; index++) await get(core, '/api/galaxy/1/sectors', '', token);
    const refused = await get(core, '/api/galaxy/1/sectors', '', token);
    expect(refused.status).toBe(429);
    expect((await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 1 } })).status).toBe(200);
  });
});

describe('gameplay rules and refusals of routes of your own', () => {
  it('refuses gameplay with 409 during an encounter unless the route resolves it; reads go on', async () => {
    const resolve: UserRoute = { method: 'POST', path: '/api/fight/flee', encounter: 'resolve', cost: 0 };
    const ambush: UserRoute = { method: 'POST', path: '/api/fight/ambush', encounter: 'start', cost: 0 };
    const core = harness({ routes: [SECTORS, MOVE, resolve, ambush] });
    const token = await core.signIn('pilot@example.com');
    expect((await core.call('POST', '/api/fight/ambush', { token })).status).toBe(200);
    expect((await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 4 } })).status).toBe(409);
    expect((await get(core, '/api/galaxy/1/sectors', '', token)).body).toMatchObject({ current: 1 });
    expect((await core.call('POST', '/api/fight/flee', { token })).status).toBe(200);
    expect((await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 4 } })).status).toBe(200);
  });

  it('refuses state beyond its bound with 413, keeping the state and the points as they were', async () => {
    const core = harness({ routes: [MOVE, { method: 'PUT', path: '/api/notes', state: { notes: '{{body.text}}' } }] });
    const token = await core.signIn('pilot@example.com');
    await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 5 } });
    const big = await core.call('PUT', '/api/notes', { token, body: { text: 'x'.repeat(MAX_ROUTE_STATE_BYTES) } });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: expect.stringContaining(`at most ${MAX_ROUTE_STATE_BYTES} are kept per player`) });
    expect(big.headers['x-actionpoints-remaining']).toBe('59');
    const fits = await core.call('PUT', '/api/notes', { token, body: { text: 'x'.repeat(MAX_ROUTE_STATE_BYTES - 100) } });
    expect(fits.status).toBe(200);
    expect(core.service.store.playerByEmail('pilot@example.com')?.routeState).toMatchObject({ sector: 5 });
  });

  it('answers a status of its own, an error body from 400 on, and 400 for a status template the request spoils', async () => {
    const routes: UserRoute[] = [
      { method: 'POST', path: '/api/dock', category: 'read', status: 201, response: { docked: true } },
      { method: 'GET', path: '/api/gate', category: 'public', status: '{{query.code ?? 403}}', response: { error: 'Gate closed' } },
    ];
    const core = harness({ routes });
    const token = await core.signIn('pilot@example.com');
    expect(await core.call('POST', '/api/dock', { token })).toMatchObject({ status: 201, body: { success: true, docked: true } });
    expect(await get(core, '/api/gate', '')).toMatchObject({ status: 403, body: { error: 'Gate closed' } });
    expect((await get(core, '/api/gate', 'code=204')).status).toBe(204);
    const spoiled = await get(core, '/api/gate', 'code=abc');
    expect(spoiled.status).toBe(400);
    expect(spoiled.body).toEqual({ error: 'GET /api/gate: its status template gave "abc", not an HTTP status from 200 to 599' });
  });

  it('adds a method to a spec path without replacing its routes, and lists every method of a pattern in Allow', async () => {
    const core = harness({
      routes: [MOVE, SECTORS, { method: 'DELETE', path: '/api/player/ship', response: { scrapped: true } }, { method: 'GET', path: '/api/:anything' }],
    });
    const token = await core.signIn('pilot@example.com');
    expect((await core.call('DELETE', '/api/player/ship', { token })).body).toEqual({ success: true, scrapped: true });
    expect((await core.call('GET', '/api/player', { token })).body).toMatchObject({ player: { email: 'pilot@example.com' } });
    expect((await core.call('GET', '/api/elsewhere', { token })).status).toBe(200);
    const wrong = await core.call('PUT', '/api/galaxy/1/sectors', { token });
    expect(wrong.status).toBe(405);
    expect(wrong.headers['allow']).toBe('GET, HEAD');
    expect((await core.call('GET', '/api/galaxy//sectors', { token })).status).toBe(404);
  });
});
