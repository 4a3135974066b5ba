import { describe, expect, it } from 'vitest';
import { CoreHarness, GAME_ORIGIN } from '../../test/support/core-harness.js';

const PAGE = 'http://localhost:5173';
const STRANGER = 'http://elsewhere.test';
const preflight = (method: string, origin = PAGE) => ({
  origin,
  headers: { 'access-control-request-method': method, 'access-control-request-headers': 'content-type,x-client-version' },
});

describe('CORS by default: any page origin reads the API', () => {
  it('reflects the origin and exposes the spec headers, without exempting it from the buckets', async () => {
    const harness = new CoreHarness();
    const response = await harness.call('POST', '/api/auth/register', { origin: PAGE, body: { email: 'a@example.com' } });
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ 'access-control-allow-origin': PAGE, 'access-control-allow-credentials': 'true', vary: 'Origin' });
    expect(response.headers['access-control-expose-headers']).toBe('x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset');
    const health = await harness.call('GET', '/health', { origin: PAGE });
    expect(health.headers['x-ratelimit-remaining']).toBe('59');
    const exempt = await harness.call('GET', '/health', { origin: GAME_ORIGIN });
    expect(exempt.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it.each([
    ['a spec route', 'POST', '/api/auth/register'],
    ['an authenticated route', 'GET', '/api/player'],
    ['a method the path does not serve', 'DELETE', '/api/player/ship'],
    ['an unknown path', 'GET', '/api/galaxy/1/sectors'],
    ['health', 'GET', '/health'],
  ])('answers a preflight on %s with 204 before authentication, routing and counting', async (_what, method, path) => {
    const harness = new CoreHarness();
    const response = await harness.call('OPTIONS', path, preflight(method));
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-allow-methods': method,
      'access-control-allow-headers': 'content-type,x-client-version',
      'access-control-max-age': '600',
    });
    expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    expect((await harness.call('GET', '/health')).headers['x-ratelimit-remaining']).toBe('59');
  });

  it('answers a preflight before any fault: a 503 on every request does not reach it', async () => {
    const harness = new CoreHarness({ faults: ['* 503'] });
    expect((await harness.call('GET', '/health')).status).toBe(503);
    expect((await harness.call('OPTIONS', '/api/player', preflight('GET'))).status).toBe(204);
  });

  it('journals a preflight in no category', async () => {
    const harness = new CoreHarness();
    await harness.call('OPTIONS', '/api/nowhere', preflight('POST'));
    expect(harness.service.journal.latest(1)[0]).toMatchObject({ method: 'OPTIONS', path: '/api/nowhere', status: 204, category: null, origin: PAGE });
  });
});

describe('CORS restricted with corsOrigins', () => {
  const restricted = () => new CoreHarness({ corsOrigins: [PAGE] });

  it('lets the listed origins and the game origins through, and no other', async () => {
    const harness = restricted();
    expect((await harness.call('GET', '/health', { origin: PAGE })).headers['access-control-allow-origin']).toBe(PAGE);
    expect((await harness.call('GET', '/health', { origin: GAME_ORIGIN })).headers['access-control-allow-origin']).toBe(GAME_ORIGIN);
    const stranger = await harness.call('GET', '/health', { origin: STRANGER });
    expect(stranger.status).toBe(200);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(stranger.headers['access-control-expose-headers']).toBeUndefined();
  });

  it("answers another origin's preflight 204 without a grant, so the browser stops the request", async () => {
    const response = await restricted().call('OPTIONS', '/api/player', preflight('GET', STRANGER));
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('matches origins exactly: another port, scheme or a longer host is another origin', async () => {
    const harness = restricted();
    for (const origin of ['http://localhost:5174', 'https://localhost:5173', 'http://localhost:51730', 'http://localhost:5173.evil.test']) {
      expect((await harness.call('GET', '/health', { origin })).headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});

describe('the control API keeps its own origin rules', () => {
  it('grants its preflight and answers to loopback pages and game origins only', async () => {
    const harness = new CoreHarness();
    const control = (origin: string) =>
      harness.service.handle({ method: 'GET', path: '/__mock/outbox', headers: { origin }, ip: '127.0.0.1', peer: '127.0.0.1' });
    const controlPreflight = (origin: string) =>
      harness.service.handle({
        method: 'OPTIONS',
        path: '/__mock/outbox',
        headers: { origin, 'access-control-request-method': 'GET' },
        ip: '127.0.0.1',
        peer: '127.0.0.1',
      });
    for (const origin of [PAGE, GAME_ORIGIN]) {
      expect((await controlPreflight(origin)).headers['access-control-allow-origin']).toBe(origin);
      const answer = await control(origin);
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
    }
    const refused = await controlPreflight(STRANGER);
    expect(refused.status).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect((await control(STRANGER)).status).toBe(403);
  });
});
