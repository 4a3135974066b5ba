import { describe, expect, it } from 'vitest';
import type { UserRoute } from '../src/core/user-routes/user-route.js';
import { header } from './support/http.js';
import { json, useControlServers } from './support/control-server.js';

const startServer = useControlServers();

const START_MS = Date.UTC(2030, 0, 1);
const START = new Date(START_MS).toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SCAN: UserRoute = { method: 'POST', path: '/api/sector/scan', category: 'gameplay', cost: 5, response: { sector: 7 } };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Created {
  player: { id: string; email: string };
  authToken: string;
}

describe('control API over HTTP: players', () => {
  it('POST /__mock/players creates a player in the given state with a working token; GET lists them', async () => {
    const mock = await startServer({ startMs: START_MS });
    const created = await mock.post('/__mock/players', { email: ' Pilot@Example.com', actionPoints: 10, ship: { name: 'Nomad' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      success: true,
      player: {
        id: expect.stringMatching(UUID),
        email: 'pilot@example.com',
        emailVerified: true,
        createdAt: START,
        actionPoints: 10,
        maxActionPoints: 60,
        ship: { id: expect.stringMatching(UUID), name: 'Nomad', createdAt: START },
        inEncounter: false,
      },
      authToken: expect.stringMatching(UUID),
      expiresAt: '2030-01-08T00:00:00.000Z',
    });
    const { player, authToken } = json<Created>(created);
    const read = await mock.get('/api/player', bearer(authToken));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ player: { id: player.id, actionPoints: 10, ship: { name: 'Nomad' } } });

    const fixed = await mock.post('/__mock/players', { email: 'rookie@example.com', emailVerified: false, token: '00000000-0000-4000-8000-0000000000ff' });
    expect(json(fixed)).toMatchObject({ authToken: '00000000-0000-4000-8000-0000000000ff', player: { emailVerified: false, ship: null, actionPoints: 60 } });
    const listed = json<{ players: { email: string; emailVerified: boolean }[] }>(await mock.get('/__mock/players')).players;
    expect(listed.map(({ email, emailVerified }) => ({ email, emailVerified }))).toEqual([
      { email: 'pilot@example.com', emailVerified: true },
      { email: 'rookie@example.com', emailVerified: false },
    ]);
    const overMax = await mock.post('/__mock/players', { email: 'greedy@example.com', actionPoints: 61 });
    expect(overMax.status).toBe(400);
    expect(overMax.body).toEqual({ error: 'actionPoints of greedy@example.com must be an integer from 0 to 60' });
  });

  it('PUT /__mock/players/:id/action-points sets the points and restarts the refill interval', async () => {
    const mock = await startServer({ startMs: START_MS, service: { routes: [SCAN] } });
    const { player, authToken } = json<Created>(await mock.post('/__mock/players', { email: 'pilot@example.com' }));
    await mock.post('/__mock/clock', { advanceMs: 30_000 });

    const set = await mock.request('PUT', `/__mock/players/${player.id}/action-points`, { points: 0 });
    expect(json(set)).toMatchObject({ success: true, player: { id: player.id, actionPoints: 0, inEncounter: false } });
    const refused = await mock.post('/api/sector/scan', {}, bearer(authToken));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Insufficient action points: this action costs 5, 0 remaining' });
    expect(header(refused, 'x-actionpoints-remaining')).toBe('0');
    expect(header(refused, 'x-actionpoints-nextrefill')).toBe('60');

    const byEmail = await mock.request('PUT', '/__mock/players/pilot%40example.com/action-points', { points: 5 });
    expect(json(byEmail)).toMatchObject({ player: { actionPoints: 5 } });
    const scanned = await mock.post('/api/sector/scan', {}, bearer(authToken));
    expect(scanned.status).toBe(200);
    expect(scanned.body).toEqual({ success: true, sector: 7 });
    expect(header(scanned, 'x-actionpoints-remaining')).toBe('0');
    await mock.post('/__mock/clock', { advanceMs: 60_000 });
    expect(json(await mock.get('/__mock/players')).players).toEqual([expect.objectContaining({ actionPoints: 1 })]);

    const tooMany = await mock.request('PUT', `/__mock/players/${player.id}/action-points`, { points: 61 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: 'body /points must be at most 60' });
    const missing = await mock.request('PUT', `/__mock/players/${player.id}/action-points`, {});
    expect(missing.body).toEqual({ error: "body must have required property 'points'" });
  });

  it('POST and DELETE /__mock/players/:id/encounter start and resolve a fighter encounter', async () => {
    const mock = await startServer({ service: { routes: [SCAN] } });
    const { player, authToken } = json<Created>(await mock.post('/__mock/players', { email: 'pilot@example.com' }));

    const started = await mock.post(`/__mock/players/${player.id}/encounter`);
    expect(json(started)).toMatchObject({ success: true, player: { id: player.id, inEncounter: true } });
    const blocked = await mock.post('/api/sector/scan', {}, bearer(authToken));
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ error: 'A fighter encounter must be resolved first' });
    expect(header(blocked, 'x-actionpoints-remaining')).toBe('60');
    expect((await mock.post('/api/player/ship', { name: 'Nomad' }, bearer(authToken))).status).toBe(409);

    const resolved = await mock.request('DELETE', '/__mock/players/pilot@example.com/encounter');
    expect(json(resolved)).toMatchObject({ player: { inEncounter: false } });
    const allowed = await mock.post('/api/sector/scan', {}, bearer(authToken));
    expect(allowed.status).toBe(200);
    expect(header(allowed, 'x-actionpoints-remaining')).toBe('55');
    expect((await mock.request('DELETE', '/__mock/players/nobody@example.com/encounter')).status).toBe(404);
  });
});

describe('control API over HTTP: scenarios', () => {
  it('GET /__mock/scenarios lists each scenario with its parameters', async () => {
    const mock = await startServer();
    const listed = json<{ scenarios: { name: string; summary: string; parameters: string[] }[] }>(await mock.get('/__mock/scenarios')).scenarios;
    expect(Object.fromEntries(listed.map((scenario) => [scenario.name, scenario.parameters]))).toEqual({
      'rate-limited': ['category', 'key'],
      'code-expired': ['email'],
      'code-voided': ['email'],
      'token-expired': ['token'],
      'no-action-points': ['player'],
      'fighter-encounter': ['player'],
      'unverified-player': ['email'],
      outage: ['path'],
      'slow-network': ['path'],
      flaky: ['path'],
    });
    expect(listed.every((scenario) => scenario.summary.length > 10)).toBe(true);
  });

  it('rate-limited, code-expired and code-voided put the auth routes in those states', async () => {
    const mock = await startServer({ startMs: START_MS });
    await mock.post('/api/auth/register', { email: 'alice@example.com' });
    await mock.post('/api/auth/register', { email: 'bob@example.com' });
    const codes = json<{ messages: { email: string; code: string }[] }>(await mock.get('/__mock/outbox')).messages;
    const codeOf = (email: string) => codes.find((message) => message.email === email)!.code;

    expect(json(await mock.post('/__mock/scenarios/code-expired', { email: 'Alice@example.com' }))).toEqual({
      success: true,
      scenario: 'code-expired',
      email: 'alice@example.com',
    });
    const expired = await mock.post('/api/auth/verify-email', { email: 'alice@example.com', otp: codeOf('alice@example.com') });
    expect(expired.status).toBe(400);
    expect(json(await mock.get('/__mock/outbox?email=alice@example.com')).messages).toEqual([expect.objectContaining({ state: 'expired' })]);

    expect(json(await mock.post('/__mock/scenarios/code-voided', { email: 'bob@example.com' }))).toEqual({
      success: true,
      scenario: 'code-voided',
      email: 'bob@example.com',
    });
    const voided = await mock.post('/api/auth/verify-email', { email: 'bob@example.com', otp: codeOf('bob@example.com') });
    expect(voided.status).toBe(429);
    expect(header(voided, 'retry-after')).toBe('900');
    const noCode = await mock.post('/__mock/scenarios/code-voided', { email: 'alice@example.com' });
    expect(noCode.status).toBe(404);
    expect(noCode.body).toEqual({ error: 'No pending code for alice@example.com' });

    const limited = await mock.post('/__mock/scenarios/rate-limited', { category: 'auth', key: '127.0.0.1' });
    expect(limited.body).toEqual({
      success: true,
      scenario: 'rate-limited',
      category: 'auth',
      key: '127.0.0.1',
      count: 5,
      limit: 5,
      remaining: 0,
      resetAt: '2030-01-01T00:01:00.000Z',
    });
    const refused = await mock.post('/api/auth/register', { email: 'carol@example.com' });
    expect(refused.status).toBe(429);
    expect(header(refused, 'retry-after')).toBe('60');
    const badCategory = await mock.post('/__mock/scenarios/rate-limited', { category: 'bogus', key: 'x' });
    expect(badCategory.status).toBe(400);
    expect(badCategory.body).toEqual({ error: 'body /category must be one of auth, gameplay, read, public, admin' });
  });

  it("rate-limited takes a player's email (or id) as the key of a read or gameplay bucket, and refuses a key no client could have", async () => {
    const mock = await startServer({ startMs: START_MS });
    const { player, authToken } = json<Created>(await mock.post('/__mock/players', { email: 'pilot@example.com' }));
    const limited = await mock.post('/__mock/scenarios/rate-limited', { category: 'read', key: 'Pilot@example.com' });
    expect(limited.body).toMatchObject({ success: true, category: 'read', key: player.id, remaining: 0 });
    expect((await mock.get('/api/player', bearer(authToken))).status).toBe(429);

    const noPlayer = await mock.post('/__mock/scenarios/rate-limited', { category: 'gameplay', key: 'nobody@example.com' });
    expect(noPlayer.status).toBe(404);
    expect(noPlayer.body).toEqual({ error: 'No player nobody@example.com' });
    const notAnAddress = await mock.post('/__mock/scenarios/rate-limited', { category: 'auth', key: 'pilot@example.com' });
    expect(notAnAddress.status).toBe(400);
    expect(notAnAddress.body).toEqual({ error: 'body /key must be a client IP address for the auth bucket, not "pilot@example.com"' });
  });

  it('token-expired, no-action-points, fighter-encounter and unverified-player put a player in those states', async () => {
    const mock = await startServer({ service: { routes: [SCAN] } });
    const { player, authToken } = json<Created>(await mock.post('/__mock/players', { email: 'pilot@example.com' }));

    const drained = await mock.post('/__mock/scenarios/no-action-points', { player: player.id });
    expect(json(drained)).toMatchObject({ scenario: 'no-action-points', player: { id: player.id, actionPoints: 0 } });
    const poor = await mock.post('/api/sector/scan', {}, bearer(authToken));
    expect(poor.status).toBe(403);
    expect(header(poor, 'x-actionpoints-nextrefill')).toBe('60');

    const fighting = await mock.post('/__mock/scenarios/fighter-encounter', { player: 'pilot@example.com' });
    expect(json(fighting)).toMatchObject({ scenario: 'fighter-encounter', player: { inEncounter: true } });
    expect((await mock.post('/api/sector/scan', {}, bearer(authToken))).status).toBe(409);

    expect(json(await mock.post('/__mock/scenarios/token-expired', { token: authToken }))).toEqual({
      success: true,
      scenario: 'token-expired',
      token: authToken,
    });
    expect((await mock.get('/api/player', bearer(authToken))).status).toBe(401);
    expect((await mock.post('/__mock/scenarios/token-expired', { token: authToken })).body).toEqual({ error: 'No such live token' });

    const unverified = await mock.post('/__mock/scenarios/unverified-player', { email: 'rookie@example.com' });
    expect(json(unverified)).toMatchObject({
      scenario: 'unverified-player',
      player: { email: 'rookie@example.com', emailVerified: false },
      authToken: expect.stringMatching(UUID),
    });
    const ship = await mock.post('/api/player/ship', { name: 'Nomad' }, bearer(json<{ authToken: string }>(unverified).authToken));
    expect(ship.status).toBe(403);
    expect(ship.body).toEqual({ error: 'Email verification is required before creating a ship' });
  });

  it('answers an unknown scenario 404 and missing parameters 400', async () => {
    const mock = await startServer();
    const unknown = await mock.post('/__mock/scenarios/apocalypse', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'No scenario apocalypse; GET /__mock/scenarios lists them' });
    const bare = await mock.request('POST', '/__mock/scenarios/code-expired');
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ error: "body must have required property 'email'" });
    expect((await mock.post('/__mock/scenarios/no-action-points', { player: 'ghost@example.com' })).body).toEqual({ error: 'No player ghost@example.com' });
  });
});
