import { describe, expect, it } from 'vitest';
import { header } from './support/http.js';
import { json, useControlServers } from './support/control-server.js';

const startServer = useControlServers();

const START_MS = Date.UTC(2030, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const MINUTE = 60_000;
const SCENARIOS = [
  'rate-limited',
  'code-expired',
  'code-voided',
  'token-expired',
  'no-action-points',
  'fighter-encounter',
  'unverified-player',
  'outage',
  'slow-network',
  'flaky',
];

describe('control API over HTTP: capabilities and clock', () => {
  it('GET /__mock/capabilities says what the target offers, uncached', async () => {
    const mock = await startServer({ service: { gameOrigins: ['http://game.test'] } });
    const response = await mock.get('/__mock/capabilities');

    expect(response.status).toBe(200);
    expect(header(response, 'cache-control')).toBe('no-store');
    expect(header(response, 'x-ratelimit-limit')).toBeUndefined();
    expect(response.body).toMatchObject({
      success: true,
      service: 'game-service-harness',
      version: '0.1.0',
      capabilities: {
        clockControl: true,
        outbox: true,
        players: true,
        buckets: true,
        journal: true,
        journalCount: true,
        faults: true,
        worlds: true,
        scenarios: SCENARIOS,
        variants: expect.arrayContaining(['wrong-code-401']),
      },
      variants: [],
      gameOrigins: ['http://game.test'],
    });
    const routes = json<{ routes: { method: string; path: string }[] }>(response).routes.map((route) => `${route.method} ${route.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /__mock/clock',
        'POST /__mock/clock',
        'DELETE /__mock/buckets',
        'PUT /__mock/buckets',
        'PUT /__mock/players/:id/action-points',
        'POST /__mock/scenarios/:name',
        'GET /__mock/variants',
        'PUT /__mock/variants',
        'POST /__mock/routes',
        'DELETE /__mock/routes/:id',
        'DELETE /__mock/journal',
      ]),
    );
    expect(routes).toHaveLength(35);
  });

  it("Date follows the virtual clock, on API and control responses alike (one header, not Node's own)", async () => {
    const mock = await startServer({ startMs: START_MS });
    const set = await mock.post('/__mock/clock', { set: '2031-06-01T09:00:00Z' });
    expect(header(set, 'date')).toBe('Sun, 01 Jun 2031 09:00:00 GMT');
    const health = await mock.get('/health');
    expect(health.headers['date']).toBe('Sun, 01 Jun 2031 09:00:00 GMT');
    expect(Number(header(health, 'x-ratelimit-reset')) * 1000).toBe(Date.UTC(2031, 5, 1, 9, 1));
  });

  it('GET and POST /__mock/clock read, set, advance, unfreeze and freeze the virtual time', async () => {
    const mock = await startServer({ startMs: START_MS });
    expect((await mock.get('/__mock/clock')).body).toEqual({ success: true, now: iso(START_MS), nowMs: START_MS, frozen: true });

    const advanced = await mock.post('/__mock/clock', { advanceMs: 90_000 });
    expect(advanced.body).toEqual({ success: true, now: '2030-01-01T00:01:30.000Z', nowMs: START_MS + 90_000, frozen: true });

    const set = await mock.post('/__mock/clock', { set: '2031-06-15T12:00:00Z', advanceMs: 1_000 });
    expect(set.body).toEqual({ success: true, now: '2031-06-15T12:00:01.000Z', nowMs: Date.UTC(2031, 5, 15, 12, 0, 1), frozen: true });
    const health = await mock.get('/health');
    expect(header(health, 'x-ratelimit-reset')).toBe(String(Date.UTC(2031, 5, 15, 12, 1, 1) / 1000));

    const running = await mock.post('/__mock/clock', { frozen: false });
    expect(json(running)).toMatchObject({ frozen: false });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const later = json<{ nowMs: number; frozen: boolean }>(await mock.get('/__mock/clock'));
    expect(later.frozen).toBe(false);
    expect(later.nowMs).toBeGreaterThanOrEqual(Date.UTC(2031, 5, 15, 12, 0, 1) + 25);
    expect(later.nowMs).toBeLessThan(Date.UTC(2031, 5, 15, 12, 0, 1) + 10_000);

    const frozen = json<{ nowMs: number; frozen: boolean }>(await mock.post('/__mock/clock', { frozen: true }));
    expect(frozen.frozen).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(json(await mock.get('/__mock/clock'))).toMatchObject({ nowMs: frozen.nowMs, frozen: true });
  });
});

describe('control API over HTTP: outbox, buckets and journal', () => {
  it('GET /__mock/outbox lists codes newest first as pending, replaced, used, voided and expired', async () => {
    const mock = await startServer({ service: { maxWrongOtpAttempts: 1 } });
    const register = (email: string) => mock.post('/api/auth/register', { email });
    const codeOf = async (email: string) => json<{ messages: { code: string }[] }>(await mock.get(`/__mock/outbox?email=${email}`)).messages[0]!.code;

    await register('carol@example.com');
    expect(json(await mock.get('/__mock/outbox'))).toMatchObject({ messages: [{ email: 'carol@example.com', state: 'pending' }] });
    await mock.post('/__mock/clock', { advanceMs: 15 * MINUTE });
    const T = START_MS + 15 * MINUTE;
    await register('alice@example.com');
    const replacedCode = await codeOf('alice@example.com');
    await register('alice@example.com');
    const usedCode = await codeOf('alice@example.com');
    expect((await mock.post('/api/auth/verify-email', { email: 'alice@example.com', otp: usedCode })).status).toBe(200);
    await register('bob@example.com');
    const wrong = (await codeOf('bob@example.com')) === '000000' ? '000001' : '000000';
    expect((await mock.post('/api/auth/verify-email', { email: 'bob@example.com', otp: wrong })).status).toBe(400);

    const outbox = await mock.get('/__mock/outbox');
    expect(outbox.status).toBe(200);
    const expiry = (issued: number) => ({ issuedAt: iso(issued), expiresAt: iso(issued + 15 * MINUTE) });
    expect(outbox.body).toEqual({
      success: true,
      messages: [
        { email: 'bob@example.com', code: expect.stringMatching(/^\d{6}$/), ...expiry(T), state: 'voided' },
        { email: 'alice@example.com', code: usedCode, ...expiry(T), state: 'used' },
        { email: 'alice@example.com', code: replacedCode, ...expiry(T), state: 'replaced' },
        { email: 'carol@example.com', code: expect.stringMatching(/^\d{6}$/), ...expiry(START_MS), state: 'expired' },
      ],
      nextCursor: null,
    });
    const alice = json<{ messages: { code: string; state: string }[] }>(await mock.get('/__mock/outbox?email=%20Alice@Example.COM'));
    expect(alice.messages.map((message) => [message.code, message.state])).toEqual([
      [usedCode, 'used'],
      [replacedCode, 'replaced'],
    ]);
    expect(json(await mock.get('/__mock/outbox?email=nobody@example.com'))).toEqual({ success: true, messages: [], nextCursor: null });
  });

  it('GET /__mock/buckets lists live buckets; DELETE empties them by category, key or all', async () => {
    const mock = await startServer({ startMs: START_MS });
    const created = json<{ player: { id: string }; authToken: string }>(await mock.post('/__mock/players', { email: 'pilot@example.com' }));
    await mock.get('/health');
    await mock.get('/health');
    await mock.post('/api/auth/register', { email: 'alice@example.com' });
    await mock.get('/api/player', { authorization: `Bearer ${created.authToken}` });

    const resetAt = iso(START_MS + MINUTE);
    expect(json(await mock.get('/__mock/buckets')).buckets).toEqual([
      { category: 'public', key: '127.0.0.1', count: 2, limit: 60, remaining: 58, resetAt },
      { category: 'auth', key: '127.0.0.1', count: 1, limit: 5, remaining: 4, resetAt },
      { category: 'read', key: created.player.id, count: 1, limit: 60, remaining: 59, resetAt },
    ]);

    expect(json(await mock.request('DELETE', '/__mock/buckets?category=public'))).toEqual({ success: true, removed: 1 });
    expect(header(await mock.get('/health'), 'x-ratelimit-remaining')).toBe('59');
    expect(json(await mock.request('DELETE', `/__mock/buckets?key=${created.player.id}`))).toEqual({ success: true, removed: 1 });
    expect(json(await mock.request('DELETE', '/__mock/buckets?category=auth&key=10.0.0.1'))).toEqual({ success: true, removed: 0 });
    const left = json<{ buckets: { category: string; count: number }[] }>(await mock.get('/__mock/buckets')).buckets;
    expect(left.map((bucket) => [bucket.category, bucket.count])).toEqual([
      ['public', 1],
      ['auth', 1],
    ]);

    const bad = await mock.request('DELETE', '/__mock/buckets?category=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'query category must be one of auth, gameplay, read, public, admin' });
    expect(json(await mock.request('DELETE', '/__mock/buckets'))).toEqual({ success: true, removed: 2 });
    await mock.get('/health');
    await mock.post('/__mock/clock', { advanceMs: MINUTE });
    expect(json(await mock.get('/__mock/buckets'))).toEqual({ success: true, buckets: [], nextCursor: null });
  });

  it('GET /__mock/journal lists requests newest first, bounded by limit, without control requests', async () => {
    const mock = await startServer({ startMs: START_MS, service: { journalSize: 4 } });
    await mock.get('/health');
    await mock.post('/__mock/clock', { advanceMs: 1_000 });
    await mock.post('/api/auth/register', { email: 'alice@example.com' });
    await mock.get('/__mock/outbox');
    await mock.get('/api/player', { origin: 'http://elsewhere.test' });

    const journal = await mock.get('/__mock/journal');
    expect(journal.status).toBe(200);
    const at = iso(START_MS + 1_000);
    const base = { ip: '127.0.0.1', origin: null, playerId: null, fault: null, unknownFields: null, generalisedFrom: null };
    const sent = (headers: Record<string, string>, requestBody: string | null = null) => ({
      requestHeaders: { host: new URL(mock.url).host, connection: 'keep-alive', ...headers },
      requestBody,
    });
    expect(journal.body).toEqual({
      success: true,
      entries: [
        {
          at,
          method: 'GET',
          path: '/api/player',
          status: 401,
          category: 'read',
          route: 'getPlayer',
          ...base,
          origin: 'http://elsewhere.test',
          ...sent({ origin: 'http://elsewhere.test' }),
        },
        {
          at,
          method: 'POST',
          path: '/api/auth/register',
          status: 200,
          category: 'auth',
          route: 'register',
          ...base,
          ...sent({ 'content-type': 'application/json', 'content-length': '29' }, '{"email":"alice@example.com"}'),
        },
        { at: iso(START_MS), method: 'GET', path: '/health', status: 200, category: 'public', route: 'health', ...base, ...sent({}) },
      ],
      nextCursor: null,
    });
    expect(json<{ entries: { path: string }[] }>(await mock.get('/__mock/journal?limit=1')).entries.map((entry) => entry.path)).toEqual(['/api/player']);

    for (let i = 0; i < 5; i++) await mock.get('/nowhere');
    const capped = json<{ entries: { path: string }[] }>(await mock.get('/__mock/journal?limit=100')).entries;
    expect(capped.map((entry) => entry.path)).toEqual(['/nowhere', '/nowhere', '/nowhere', '/nowhere']);

    for (const limit of ['0', '-1', 'abc', '1.5', '1001']) {
      const bad = await mock.get(`/__mock/journal?limit=${limit}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'query limit must be an integer from 1 to 1000' });
    }
  });
});

describe('control API over HTTP: error paths', () => {
  it('answers unknown control routes 404, wrong methods 405 with Allow, and bad bodies 400 naming the JSON path', async () => {
    const mock = await startServer();
    for (const path of ['/__mock', '/__mock/', '/__mock/nope', '/__mock/players/x/ship']) {
      const unknown = await mock.get(path);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `No control route for ${path}; GET /__mock/capabilities lists them` });
    }
    // A route's id with its slashes left unencoded: the 404 says how to encode it.
    const halfEncoded = await mock.request('DELETE', '/__mock/routes/GET%20/api/news');
    expect(halfEncoded.status).toBe(404);
    expect(halfEncoded.body).toEqual({
      error:
        "No control route for /__mock/routes/GET%20/api/news; a route's id is one path segment: encode it whole, its slashes too (encodeURIComponent), e.g. /__mock/routes/GET%20%2Fapi%2Fnews; GET /__mock/capabilities lists them",
    });
    const wrongMethod = await mock.request('PUT', '/__mock/clock', { advanceMs: 1 });
    expect(wrongMethod.status).toBe(405);
    expect(header(wrongMethod, 'allow')).toBe('GET, HEAD, POST');
    expect(wrongMethod.body).toEqual({ error: 'PUT is not allowed on /__mock/clock; use GET, HEAD, POST' });
    const encounter = await mock.get('/__mock/players/someone@example.com/encounter');
    expect(encounter.status).toBe(405);
    expect(header(encounter, 'allow')).toBe('POST, DELETE');

    const invalid: [string, unknown, string][] = [
      ['/__mock/clock', {}, 'body must NOT have fewer than 1 properties'],
      ['/__mock/clock', { advanceMs: -5 }, 'body /advanceMs must be >= 0'],
      ['/__mock/clock', { advanceMs: '5' }, 'body /advanceMs must be integer'],
      ['/__mock/clock', { speed: 2 }, 'body must NOT have additional properties (speed)'],
      ['/__mock/clock', { set: 'yesterday' }, 'body /set must be an ISO 8601 date-time'],
      ['/__mock/reset', { parts: ['everything'] }, 'body /parts/0 must be equal to one of the allowed values: buckets, players, outbox, journal, clock'],
      ['/__mock/players', { email: 'a@example.com', actionPoints: 1.5 }, 'body /actionPoints must be integer'],
      ['/__mock/players', { email: 'a@example.com', ship: { name: '' } }, 'body /ship/name must NOT have fewer than 1 characters'],
      [
        '/__mock/world',
        { players: [{ email: 'a@example.com', token: 'not-a-uuid' }] },
        expect.stringMatching(/^world \/players\/0\/token must match pattern/) as unknown as string,
      ],
      ['/__mock/world', { people: [] }, "world must have required property 'players'"],
    ];
    for (const [path, body, error] of invalid) {
      const response = await mock.post(path, body);
      expect({ path, body, status: response.status, answer: response.body }).toEqual({ path, body, status: 400, answer: { error } });
    }
    const malformed = await mock.request('POST', '/__mock/clock', undefined, { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(json(await mock.get('/__mock/clock'))).toMatchObject({ nowMs: Date.UTC(2030, 0, 1) });

    const missing = await mock.request('PUT', '/__mock/players/nobody@example.com/action-points', { points: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'No player nobody@example.com' });
    expect((await mock.post('/__mock/players/0000/encounter')).body).toEqual({ error: 'No player 0000' });
  });
});
