import { describe, expect, it } from 'vitest';
import { OTP_LIFETIME_MS, RATE_LIMITS } from '../../spec/limits.js';
import { CoreHarness, START } from '../../../test/support/core-harness.js';
import type { ServiceResponse } from '../http.js';
import { OptionsError } from '../options.js';
import { createService } from '../service.js';
import { VirtualClock } from '../clock.js';

type Body = Record<string, unknown>;
const body = (response: ServiceResponse) => response.body as Body;

async function control(harness: CoreHarness, method: string, path: string, payload?: unknown, peer?: string, headers: Record<string, string> = {}) {
  return harness.service.handle({
    method,
    path: path.split('?')[0]!,
    query: path.split('?')[1],
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: payload === undefined ? undefined : new TextEncoder().encode(JSON.stringify(payload)),
    ip: '127.0.0.1',
    peer: peer ?? '127.0.0.1',
  });
}

describe('control API access', () => {
  it('answers loopback peers and in-process callers, and refuses others unless public', async () => {
    const harness = new CoreHarness();
    expect((await control(harness, 'GET', '/__mock/clock', undefined, '::1')).status).toBe(200);
    expect((await harness.service.handle({ method: 'GET', path: '/__mock/clock', headers: {}, ip: '203.0.113.9' })).status).toBe(200);
    const refused = await control(harness, 'GET', '/__mock/clock', undefined, '203.0.113.9');
    expect(refused.status).toBe(403);
    expect(body(refused)['error']).toContain('--control-public');
    const open = new CoreHarness({ control: { public: true } });
    expect((await control(open, 'GET', '/__mock/clock', undefined, '203.0.113.9')).status).toBe(200);
  });

  it('refuses browser requests from other sites and names that are not loopback (DNS rebinding)', async () => {
    const harness = new CoreHarness();
    const reset = (headers: Record<string, string>) => control(harness, 'POST', '/__mock/reset', undefined, '127.0.0.1', headers);
    expect((await reset({ host: '127.0.0.1:8080', origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await reset({ host: 'localhost:8080', origin: 'http://game.test' })).status).toBe(200);
    expect((await reset({ host: '[::1]:8080' })).status).toBe(200);
    const crossSite = await reset({ host: 'localhost:8080', origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(body(crossSite)['error']).toContain('https://evil.example');
    const rebound = await reset({ host: 'evil.example:8080' });
    expect(rebound.status).toBe(403);
    expect(body(rebound)['error']).toContain('loopback name');
    const open = new CoreHarness({ control: { public: true } });
    expect((await control(open, 'POST', '/__mock/reset', undefined, '127.0.0.1', { host: 'evil.example', origin: 'https://evil.example' })).status).toBe(200);
  });

  it('is an unknown path, counted like any other, when switched off', async () => {
    const harness = new CoreHarness({ control: { enabled: false } });
    const response = await control(harness, 'GET', '/__mock/capabilities');
    expect(response.status).toBe(404);
    expect(response.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMITS.public.limit - 1));
  });

  it('is never rate limited nor journaled', async () => {
    const harness = new CoreHarness();
    for (let i = 0; i < 100; i++) expect((await control(harness, 'GET', '/__mock/capabilities')).status).toBe(200);
    expect(harness.service.journal.latest()).toEqual([]);
    expect((await harness.call('GET', '/health', { ip: '127.0.0.1' })).headers['x-ratelimit-remaining']).toBe(String(RATE_LIMITS.public.limit - 1));
  });
});

describe('control routes through handle', () => {
  it('capabilities: what a conformance suite may rely on', async () => {
    const response = await control(new CoreHarness(), 'GET', '/__mock/capabilities');
    expect(body(response)).toMatchObject({
      success: true,
      version: '1.2.3',
      capabilities: { clockControl: true, outbox: true, players: true, buckets: true, journal: true, worlds: true },
      gameOrigins: ['http://game.test'],
    });
    const paths = (body(response)['routes'] as { method: string; path: string }[]).map((route) => `${route.method} ${route.path}`);
    expect(paths).toContain('POST /__mock/clock');
    expect(paths).toContain('POST /__mock/scenarios/:name');
  });

  it('clock: moving it expires codes; a bad body is a 400 naming the key', async () => {
    const harness = new CoreHarness();
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    const moved = await control(harness, 'POST', '/__mock/clock', { advanceMs: OTP_LIFETIME_MS });
    expect(body(moved)).toEqual({ success: true, now: new Date(START + OTP_LIFETIME_MS).toISOString(), nowMs: START + OTP_LIFETIME_MS, frozen: true });
    const outbox = await control(harness, 'GET', '/__mock/outbox?email=A@example.com');
    expect(body(outbox)['messages']).toMatchObject([{ email: 'a@example.com', state: 'expired' }]);
    expect(body(await control(harness, 'POST', '/__mock/clock', { advanceMs: -5 }))['error']).toBe('body /advanceMs must be >= 0');
    expect(body(await control(harness, 'POST', '/__mock/clock', { set: 'yesterday' }))['error']).toBe('body /set must be an ISO 8601 date-time');
    expect((await control(harness, 'POST', '/__mock/clock', {})).status).toBe(400);
  });

  it('clock: set and frozen in one request stops a running clock on the instant asked, however real time moves meanwhile', async () => {
    // Real time that moves a millisecond each time it is read, as it may between two steps of one request.
    let realMs = START;
    const clock = new VirtualClock({ source: { now: () => realMs++ } });
    const harness = new CoreHarness({ clock });
    const at = '2030-01-01T09:00:00.000Z';
    const frozen = await control(harness, 'POST', '/__mock/clock', { set: at, frozen: true });
    expect(body(frozen)).toMatchObject({ now: at, frozen: true });
    const moved = await control(harness, 'POST', '/__mock/clock', { set: at, advanceMs: 5, frozen: true });
    expect(body(moved)).toMatchObject({ now: '2030-01-01T09:00:00.005Z', frozen: true });
    const refused = await control(harness, 'POST', '/__mock/clock', { set: '2000-01-01T00:00:00.000Z', advanceMs: 2 ** 52 });
    expect(refused.status).toBe(400);
    expect(body(await control(harness, 'GET', '/__mock/clock'))).toMatchObject({ now: '2030-01-01T09:00:00.005Z', frozen: true });
  });

  it('outbox: newest first, with the fate of each code', async () => {
    const harness = new CoreHarness({ maxWrongOtpAttempts: 1 });
    const register = (email: string) => harness.call('POST', '/api/auth/register', { body: { email }, ip: email });
    await register('a@example.com');
    await register('a@example.com');
    await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: harness.lastCode('a@example.com') } });
    await register('b@example.com');
    const wrong = harness.lastCode('b@example.com') === '000000' ? '000001' : '000000';
    await harness.call('POST', '/api/auth/verify-email', { body: { email: 'b@example.com', otp: wrong } });
    await register('c@example.com');
    const states = (body(await control(harness, 'GET', '/__mock/outbox'))['messages'] as Body[]).map((m) => `${m['email']} ${m['state']}`);
    expect(states).toEqual(['c@example.com pending', 'b@example.com voided', 'a@example.com used', 'a@example.com replaced']);
  });

  it('players: create verified or not with a token, set points, start and resolve an encounter', async () => {
    const harness = new CoreHarness();
    const created = await control(harness, 'POST', '/__mock/players', { email: 'Pilot@example.com', emailVerified: false, actionPoints: 5 });
    expect(body(created)).toMatchObject({ player: { email: 'pilot@example.com', emailVerified: false, actionPoints: 5, inEncounter: false } });
    const token = body(created)['authToken'] as string;
    expect((await harness.call('POST', '/api/player/ship', { token, body: { name: 'X' } })).status).toBe(403);
    const points = await control(harness, 'PUT', '/__mock/players/pilot@example.com/action-points', { points: 0 });
    expect(body(points)).toMatchObject({ player: { actionPoints: 0 } });
    expect((await control(harness, 'PUT', '/__mock/players/pilot@example.com/action-points', { points: 61 })).status).toBe(400);
    const id = (body(created)['player'] as Body)['id'] as string;
    expect(body(await control(harness, 'POST', `/__mock/players/${id}/encounter`))).toMatchObject({ player: { inEncounter: true } });
    expect(body(await control(harness, 'DELETE', `/__mock/players/${id}/encounter`))).toMatchObject({ player: { inEncounter: false } });
    expect((await control(harness, 'GET', '/__mock/players/nobody@example.com/encounter')).status).toBe(405);
    expect((await control(harness, 'POST', '/__mock/players/nobody@example.com/encounter')).status).toBe(404);
    expect(body(await control(harness, 'GET', '/__mock/players'))['players']).toHaveLength(1);
  });

  it('players: removed by address with their tokens, buckets and codes, leaving every other player and code', async () => {
    const harness = new CoreHarness();
    const keptToken = await harness.signIn('kept@example.com');
    const goneToken = await harness.signIn('gone@example.com');
    expect((await harness.call('GET', '/api/player', { token: goneToken })).status).toBe(200);
    expect((await harness.call('GET', '/api/player', { token: keptToken })).status).toBe(200);
    await harness.call('POST', '/api/auth/register', { body: { email: 'pending@example.com' } });
    await harness.call('POST', '/api/auth/register', { body: { email: 'kept-pending@example.com' } });
    const pendingCode = harness.lastCode('pending@example.com');

    const removed = await control(harness, 'DELETE', '/__mock/players?email=Gone@example.com&email=pending@example.com&email=never@example.com');
    expect(body(removed)).toEqual({ success: true, removed: { players: 1, tokens: 1, codes: 1, messages: 2, buckets: 1 } });

    const players = body(await control(harness, 'GET', '/__mock/players'))['players'] as Body[];
    expect(players.map((player) => player['email'])).toEqual(['kept@example.com']);
    const readBuckets = (body(await control(harness, 'GET', '/__mock/buckets?category=read'))['buckets'] as Body[]).map((bucket) => bucket['key']);
    expect(readBuckets).toEqual([players[0]!['id']]);
    const outbox = (body(await control(harness, 'GET', '/__mock/outbox'))['messages'] as Body[]).map((message) => message['email']);
    expect(outbox).toEqual(['kept-pending@example.com', 'kept@example.com']);
    expect((await harness.call('GET', '/api/player', { token: goneToken })).status).toBe(401);
    expect((await harness.call('GET', '/api/player', { token: keptToken })).status).toBe(200);
    // The removed address's code no longer signs in; the address can register again from scratch.
    expect((await harness.call('POST', '/api/auth/verify-email', { body: { email: 'pending@example.com', otp: pendingCode } })).status).toBe(400);
    expect((await control(harness, 'DELETE', '/__mock/players')).status).toBe(400);
  });

  it('buckets: listed with their counts, emptied by filter', async () => {
    const harness = new CoreHarness();
    await harness.call('GET', '/health', { ip: '10.0.0.1' });
    await harness.call('GET', '/health', { ip: '10.0.0.2' });
    expect(body(await control(harness, 'GET', '/__mock/buckets'))['buckets']).toEqual([
      { category: 'public', key: '10.0.0.1', count: 1, limit: 60, remaining: 59, resetAt: new Date(START + 60_000).toISOString() },
      { category: 'public', key: '10.0.0.2', count: 1, limit: 60, remaining: 59, resetAt: new Date(START + 60_000).toISOString() },
    ]);
    expect(body(await control(harness, 'DELETE', '/__mock/buckets?category=public&key=10.0.0.1'))).toEqual({ success: true, removed: 1 });
    expect(body(await control(harness, 'GET', '/__mock/buckets'))['buckets']).toHaveLength(1);
    expect((await control(harness, 'DELETE', '/__mock/buckets?category=nope')).status).toBe(400);
  });

  it('journal: the last requests, newest first, bounded; a 404 or 405 under the public bucket it was counted in', async () => {
    const harness = new CoreHarness({ journalSize: 3 });
    for (const path of ['/health', '/nowhere', '/api/player']) await harness.call('GET', path);
    await harness.call('PUT', '/health');
    const entries = body(await control(harness, 'GET', '/__mock/journal'))['entries'] as Body[];
    expect(entries.map((entry) => `${entry['path']} ${entry['status']} ${entry['category']}`)).toEqual([
      '/health 405 public',
      '/api/player 401 read',
      '/nowhere 404 public',
    ]);
    expect(body(await control(harness, 'GET', '/__mock/journal?limit=1'))['entries']).toHaveLength(1);
    expect((await control(harness, 'GET', '/__mock/journal?limit=zero')).status).toBe(400);
  });

  it('reset: all parts or some; players return to the start world', async () => {
    const token = '00000000-0000-4000-8000-000000000001';
    const harness = new CoreHarness({ world: { players: [{ email: 'seed@example.com', token }] } });
    await control(harness, 'POST', '/__mock/players', { email: 'extra@example.com' });
    await harness.call('GET', '/health');
    expect(body(await control(harness, 'POST', '/__mock/reset', { parts: ['players'] }))).toEqual({ success: true, reset: ['players'] });
    expect((body(await control(harness, 'GET', '/__mock/players'))['players'] as Body[]).map((p) => p['email'])).toEqual(['seed@example.com']);
    expect(body(await control(harness, 'GET', '/__mock/buckets'))['buckets']).toHaveLength(1);
    await control(harness, 'POST', '/__mock/reset');
    expect(body(await control(harness, 'GET', '/__mock/buckets'))['buckets']).toHaveLength(0);
    expect((await harness.call('GET', '/api/player', { token })).status).toBe(200);
    expect(body(await control(harness, 'POST', '/__mock/reset', { parts: ['everything'] }))['error']).toContain('must be equal to one of the allowed values');
  });

  it('world: replaces every player; its tokens sign in', async () => {
    const harness = new CoreHarness();
    const old = await harness.signIn('old@example.com');
    const token = '00000000-0000-4000-8000-0000000000aa';
    const loaded = await control(harness, 'POST', '/__mock/world', { players: [{ email: 'new@example.com', token, ship: { name: 'Nomad' } }] });
    expect(body(loaded)['players']).toMatchObject([{ email: 'new@example.com', authToken: token }]);
    expect((await harness.call('GET', '/api/player', { token: old })).status).toBe(401);
    expect(body(await harness.call('GET', '/api/player', { token }))).toMatchObject({ player: { ship: { name: 'Nomad' } } });
    expect(body(await control(harness, 'POST', '/__mock/world', { players: [{ email: 'x@example.com', token: 'nope' }] }))['error']).toContain(
      'world /players/0/token must match pattern',
    );
  });

  it('scenarios: each one reaches its state', async () => {
    const harness = new CoreHarness();
    const apply = (name: string, params: unknown) => control(harness, 'POST', `/__mock/scenarios/${name}`, params);
    expect((body(await control(harness, 'GET', '/__mock/scenarios'))['scenarios'] as Body[]).length).toBe(10);

    await apply('rate-limited', { category: 'auth', key: '203.0.113.1' });
    expect((await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } })).status).toBe(429);

    await harness.call('POST', '/api/auth/register', { body: { email: 'b@example.com' }, ip: '10.0.0.1' });
    await apply('code-expired', { email: 'b@example.com' });
    expect(
      (await harness.call('POST', '/api/auth/verify-email', { body: { email: 'b@example.com', otp: harness.lastCode('b@example.com') }, ip: '10.0.0.1' }))
        .status,
    ).toBe(400);

    await harness.call('POST', '/api/auth/register', { body: { email: 'c@example.com' }, ip: '10.0.0.2' });
    await apply('code-voided', { email: 'c@example.com' });
    expect(
      (await harness.call('POST', '/api/auth/verify-email', { body: { email: 'c@example.com', otp: harness.lastCode('c@example.com') }, ip: '10.0.0.2' }))
        .status,
    ).toBe(429);

    const token = await harness.signIn('d@example.com');
    await apply('fighter-encounter', { player: 'd@example.com' });
    expect((await harness.call('POST', '/api/player/ship', { token, body: { name: 'X' } })).status).toBe(409);
    await apply('token-expired', { token });
    expect((await harness.call('GET', '/api/player', { token })).status).toBe(401);

    const unverified = body(await apply('unverified-player', { email: 'e@example.com' }));
    expect((await harness.call('POST', '/api/player/ship', { token: unverified['authToken'] as string, body: { name: 'X' } })).status).toBe(403);
    expect(body(await apply('no-action-points', { player: 'e@example.com' }))).toMatchObject({ player: { actionPoints: 0 } });

    expect((await apply('nope', {})).status).toBe(404);
    expect(body(await apply('rate-limited', { category: 'auth' }))['error']).toBe("body must have required property 'key'");
  });
});

describe('options', () => {
  it('refuses a gameplay route that collides with the spec or leaves /api', () => {
    const make =
      (path: string, method: 'POST' | 'DELETE' = 'POST') =>
      () =>
        createService({ version: '1.0.0', routes: [{ method, path, category: 'gameplay' }] });
    expect(make('/api/player/ship')).toThrow(OptionsError);
    expect(make('/__mock/clock')).toThrow(/must start with \/api\//);
    expect(make('/api/player/ship', 'DELETE')).not.toThrow();
  });

  it('starts world players without points of their own at the start value, capped by the maximum', async () => {
    const harness = new CoreHarness({ actionPoints: { start: 60, max: 10 }, world: { players: [{ email: 'a@example.com' }] } });
    const players = body(await control(harness, 'GET', '/__mock/players'))['players'] as Body[];
    expect(players[0]).toMatchObject({ actionPoints: 10, maxActionPoints: 10 });
  });

  it('refuses a start world that names a player twice', () => {
    const world = { players: [{ email: 'a@example.com' }, { email: 'A@example.com' }] };
    expect(() => createService({ version: '1.0.0', world })).toThrow('world: the world lists a@example.com twice');
  });
});
